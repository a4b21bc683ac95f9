import AppTesting
import Crypt
import Foundation
import Postgres
import TILWire
import Web
import WebTesting
import XCTest
@testable import App

/// The caller's passkeys: listed, renamed (names in every Unicode spelling) and removed; never
/// another user's.
final class PasskeyManagementTests: XCTestCase {
    func testListRenameAndRemoveOnlyTheCallersPasskeys() async throws {
        try await withTestApp { app in
            let owner = try await User.create(username: "owner", on: app)
            let stranger = try await User.create(username: "stranger", on: app)
            let first = try await PasskeyRows.insert(for: owner.id, name: "Laptop", on: app)
            let second = try await PasskeyRows.insert(for: owner.id, name: "Phone", on: app)
            let theirs = try await PasskeyRows.insert(for: stranger.id, on: app)
            let token = try await app.client.session("owner", scope: "account").value

            let list = try await app.getResponse(to: "/api/users/me/passkeys", decodeTo: [PasskeySummary].self, auth: .bearer(token))
            XCTAssertEqual(list.map(\.id), [first, second], "oldest first, only the caller's")
            XCTAssertEqual(list.map(\.name), ["Laptop", "Phone"])
            XCTAssertNil(list[0].lastUsedAt)
            XCTAssertTrue(list[0].backedUp)
            let raw = try await app.client.send(.get, "/api/users/me/passkeys", auth: .bearer(token))
            XCTAssertTrue(raw.bodyString.contains(#""lastUsedAt":null"#), raw.bodyString)
            XCTAssertFalse(raw.bodyString.contains("publicKey"), "never the key")

            let renamed = try await app.client.send(.patch, "/api/users/me/passkeys/\(first)", json: ["name": "Work laptop"], auth: .bearer(token))
            XCTAssertEqual(renamed.status.code, 200, renamed.bodyString)
            XCTAssertEqual(try renamed.decode(PasskeySummary.self).name, "Work laptop")

            for (method, body) in [(HTTPMethod.patch, Optional(["name": "Mine now"])), (.delete, nil)] {
                for id in [theirs.uuidString, UUID().uuidString] {
                    let path = "/api/users/me/passkeys/\(id)"
                    let response = if let body {
                        try await app.client.send(method, path, json: body, auth: .bearer(token))
                    } else {
                        try await app.client.send(method, path, auth: .bearer(token))
                    }
                    XCTAssertEqual(response.status.code, 404, "\(method) \(id): \(response.bodyString)")
                    XCTAssertEqual(try response.decode(ErrorAnswer.self).reason, "No passkey with that id.")
                }
            }
            let malformed = try await app.client.send(.delete, "/api/users/me/passkeys/not-a-uuid", auth: .bearer(token))
            XCTAssertEqual(malformed.status.code, 400, malformed.bodyString)

            let removed = try await app.client.send(.delete, "/api/users/me/passkeys/\(second)", auth: .bearer(token))
            XCTAssertEqual(removed.status.code, 204, removed.bodyString)
            let again = try await app.client.send(.delete, "/api/users/me/passkeys/\(second)", auth: .bearer(token))
            XCTAssertEqual(again.status.code, 404)
            let left = try await app.getResponse(to: "/api/users/me/passkeys", decodeTo: [PasskeySummary].self, auth: .bearer(token))
            XCTAssertEqual(left.map(\.name), ["Work laptop"])
            let strangers = try await app.til.db.query("SELECT name FROM passkeys WHERE user_id = \(stranger.id)")
            XCTAssertEqual(try strangers.first?.decode(column: "name", as: String.self), "Fixture key", "untouched")
        }
    }

    /// Names are stored in NFC and trimmed; 64 characters of any width pass, 65 do not; control
    /// and invisible formatting characters (zero-width joiners included, as in usernames) are
    /// refused with a reason naming the field.
    func testPasskeyNamesInUnicode() async throws {
        try await withTestApp { app in
            let owner = try await User.create(username: "namer", on: app)
            let id = try await PasskeyRows.insert(for: owner.id, on: app)
            let token = try await app.client.session("namer", scope: "account").value
            let accepted: [(String, String)] = [
                ("Te\u{301}le\u{301}phone de Zoe\u{308}", "Téléphone de Zoë"),
                ("  \u{3000}YubiKey 5 NFC\t\n", "YubiKey 5 NFC"),
                ("🔑 Passkey für Büro", "🔑 Passkey für Büro"),
                (String(repeating: "🇩🇪", count: 30), String(repeating: "🇩🇪", count: 30)),
                (String(repeating: "ß", count: 64), String(repeating: "ß", count: 64)),
            ]
            for (sent, stored) in accepted {
                let response = try await app.client.send(.patch, "/api/users/me/passkeys/\(id)", json: ["name": sent], auth: .bearer(token))
                XCTAssertEqual(response.status.code, 200, "\(sent): \(response.bodyString)")
                let name = try await app.til.db.query("SELECT name FROM passkeys WHERE id = \(id)").first?.decode(column: "name", as: String.self)
                XCTAssertEqual(name, stored)
                XCTAssertEqual(name?.unicodeScalars.elementsEqual(stored.unicodeScalars), true, "\(sent): stored in NFC")
            }
            let refused: [(String, String)] = [
                ("", "must not be empty"), (" \u{3000} ", "must not be empty"),
                (String(repeating: "ß", count: 65), "at most 64 characters"),
                (String(repeating: "e\u{301}\u{301}\u{301}\u{301}", count: 60), "at most 64 characters"),
                ("Lap\u{0007}top", "control"), ("Lap\u{200B}top", "control or invisible"), ("\u{202E}potpal", "control or invisible"),
                ("👩\u{200D}💻 laptop", "invisible"),  // a zero-width joiner is Cf, as in usernames
            ]
            for (sent, reason) in refused {
                let response = try await app.client.send(.patch, "/api/users/me/passkeys/\(id)", json: ["name": sent], auth: .bearer(token))
                XCTAssertEqual(response.status.code, 400, "\(sent.debugDescription): \(response.bodyString)")
                let answer = try response.decode(ErrorAnswer.self).reason
                XCTAssertTrue(answer.contains("'name'") && answer.contains(reason), "\(sent.debugDescription): \(answer)")
            }
            for body in ["{", #"{"name": 5}"#, #"{"nom": "x"}"#, "[]"] {
                let response = try await app.client.send(
                    .patch, "/api/users/me/passkeys/\(id)", headers: ["Content-Type": "application/json"], body: Array(body.utf8), auth: .bearer(token))
                XCTAssertEqual(response.status.code, 400, "\(body): \(response.bodyString)")
            }
        }
    }
}
