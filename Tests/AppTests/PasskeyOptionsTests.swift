import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The options that start a passkey registration and a passkey login: their WebAuthn JSON
/// shape, their single-use challenges (stored as digests only), and login options that never
/// tell whether a username exists.
final class PasskeyOptionsTests: XCTestCase {
    struct Descriptor: Decodable, Equatable {
        let type: String
        let id: String
        let transports: [String]
    }

    struct Creation: Decodable {
        struct RP: Decodable { let id: String; let name: String }
        struct Entity: Decodable { let id: String; let name: String; let displayName: String }
        struct Param: Decodable { let type: String; let alg: Int }
        struct Selection: Decodable { let residentKey: String; let requireResidentKey: Bool; let userVerification: String }
        let rp: RP
        let user: Entity
        let challenge: String
        let pubKeyCredParams: [Param]
        let timeout: Int
        let excludeCredentials: [Descriptor]
        let authenticatorSelection: Selection
        let attestation: String
    }

    struct Request: Decodable {
        let challenge: String
        let timeout: Int
        let rpId: String
        let allowCredentials: [Descriptor]
        let userVerification: String
    }

    func testCreationOptionsAreWhatParseCreationOptionsFromJSONReads() async throws {
        try await withTestApp { app in
            let user = try await User.create(name: "Zoë Ångström", username: "zoe", on: app)
            let existing = SecureRandom.bytes(count: 20)
            try await PasskeyRows.insert(for: user.id, credentialID: existing, on: app)
            let token = try await app.client.session("zoe", scope: "account").value
            let response = try await app.client.send(.post, "/api/users/me/passkeys/options", auth: .bearer(token))
            XCTAssertEqual(response.status.code, 200, response.bodyString)
            XCTAssertEqual(response.headers["Cache-Control"], "no-store")
            let options = try response.decode(Creation.self)
            XCTAssertEqual(options.rp.id, "localhost", "a loopback-IP issuer's RP ID")
            XCTAssertEqual(options.rp.name, "TIL")
            XCTAssertEqual(Base64URL.decode(options.user.id), user.id.handleBytes, "the user handle: the UUID's 16 bytes")
            XCTAssertEqual(options.user.name, "zoe")
            XCTAssertEqual(options.user.displayName, "Zoë Ångström")
            XCTAssertEqual(Base64URL.decode(options.challenge)?.count, 32)
            XCTAssertEqual(options.pubKeyCredParams.map(\.alg), [-7, -8, -257])
            XCTAssertEqual(Set(options.pubKeyCredParams.map(\.type)), ["public-key"])
            XCTAssertEqual(options.timeout, 300_000)
            XCTAssertEqual(options.excludeCredentials, [Descriptor(type: "public-key", id: Base64URL.encode(existing), transports: ["internal", "hybrid"])])
            XCTAssertEqual(options.authenticatorSelection.residentKey, "required")
            XCTAssertTrue(options.authenticatorSelection.requireResidentKey)
            XCTAssertEqual(options.authenticatorSelection.userVerification, "required")
            XCTAssertEqual(options.attestation, "none")

            let stored = try await app.til.db.query("SELECT digest, purpose, user_id FROM webauthn_challenges")
            XCTAssertEqual(stored.count, 1)
            let challenge = try XCTUnwrap(Base64URL.decode(options.challenge))
            XCTAssertEqual(try stored[0].decode(column: "digest", as: String.self), SHA256.hex(challenge), "only the digest is stored")
            XCTAssertEqual(try stored[0].decode(column: "purpose", as: String.self), "registration")
            XCTAssertEqual(try stored[0].decode(column: "user_id", as: UUID.self), user.id)

            let narrow = try await app.client.session("zoe", scope: "acronyms:write").value
            let refused = try await app.client.send(.post, "/api/users/me/passkeys/options", auth: .bearer(narrow))
            XCTAssertEqual(refused.status.code, 403, "needs the account scope: \(refused.bodyString)")
        }
    }

    func testLoginOptionsWithoutAUsernameAllowEveryDiscoverablePasskey() async throws {
        try await withTestApp { app in
            for body in [nil, "{}", #"{"username": ""}"#] {
                let response = try await loginOptions(body, on: app)
                XCTAssertEqual(response.status.code, 200, response.bodyString)
                let options = try response.decode(Request.self)
                XCTAssertEqual(options.allowCredentials, [], "body \(body ?? "none")")
                XCTAssertEqual(options.rpId, "localhost")
                XCTAssertEqual(options.userVerification, "required")
                XCTAssertEqual(Base64URL.decode(options.challenge)?.count, 32)
            }
            let count = try await PasskeyRows.challengeCount(on: app)
            XCTAssertEqual(count, 3, "one challenge per request")
        }
    }

    /// A user's passkeys are listed; an unknown name and a user without passkeys get a decoy of
    /// the same shape, the same for the same name each time (in any case or normalisation).
    func testLoginOptionsNeverTellWhoExists() async throws {
        try await withTestApp { app in
            let holder = try await User.create(username: "Ünïcode-Holder", on: app)
            let ids = [SecureRandom.bytes(count: 32), SecureRandom.bytes(count: 16)]
            for id in ids { try await PasskeyRows.insert(for: holder.id, credentialID: id, on: app) }
            _ = try await User.create(username: "no-passkeys", on: app)

            let real = try await allowList("ünïcode-holder", on: app)
            XCTAssertEqual(real.map(\.id), ids.map(Base64URL.encode), "the holder's passkeys, in any case")
            let decomposed = "U\u{308}ni\u{308}code-holder"
            let realAgain = try await allowList(decomposed, on: app)
            XCTAssertEqual(realAgain, real, "and in another normalisation form")

            for name in ["no-passkeys", "nobody-at-all", "名前", String(repeating: "x", count: 300)] {
                let decoy = try await allowList(name, on: app)
                XCTAssertTrue((1...3).contains(decoy.count), "\(name): \(decoy.count) decoys")
                for descriptor in decoy {
                    XCTAssertEqual(descriptor.type, "public-key")
                    let bytes = try XCTUnwrap(Base64URL.decode(descriptor.id))
                    XCTAssertTrue(DecoyCredentials.idLengths.contains(bytes.count), "\(name): id of \(bytes.count) bytes")
                    XCTAssertFalse(descriptor.transports.isEmpty)
                }
                let again = try await allowList(name, on: app)
                XCTAssertEqual(again, decoy, "\(name): the same decoy each time")
                let upper = try await allowList(name.uppercased(), on: app)
                XCTAssertEqual(upper, decoy, "\(name): the same decoy in another case, as for a real user")
            }
            let one = try await allowList("nobody-at-all", on: app)
            let other = try await allowList("nobody-else", on: app)
            XCTAssertNotEqual(one, other, "each name its own decoy")
        }
    }

    /// The decoy is keyed by `SECRET_KEY`: another key, another list; the same key in another
    /// process (another app here), the same list.
    func testDecoysFollowTheSecretKey() throws {
        let key = try XCTUnwrap(SecretKey(text: String(repeating: "ab", count: 32)))
        let first = DecoyCredentials(secret: key).descriptors(for: "ghost")
        XCTAssertEqual(DecoyCredentials(secret: key).descriptors(for: "ghost"), first)
        XCTAssertNotEqual(DecoyCredentials(secret: AppConfiguration.testingSecretKey).descriptors(for: "ghost"), first)
        var counts: [Int: Int] = [:]
        for index in 0..<2000 { counts[DecoyCredentials(secret: key).descriptors(for: "user\(index)").count, default: 0] += 1 }
        XCTAssertGreaterThan(counts[1] ?? 0, 1200, "most names get one: \(counts)")
        XCTAssertGreaterThan(counts[3] ?? 0, 50, "some get three: \(counts)")
    }

    func testLoginOptionsRefuseBadInputWithClearErrors() async throws {
        try await withTestApp { app in
            let cases: [(String?, HTTPHeaders, Int, String)] = [
                ("{", ["Content-Type": "application/json"], 400, "JSON"),
                (#"{"username": 12}"#, ["Content-Type": "application/json"], 400, "username"),
                (#"{"username": "a\u0000b"}"#, ["Content-Type": "application/json"], 400, "NUL"),
                ("username=x", ["Content-Type": "application/x-www-form-urlencoded"], 415, "Content-Type"),
                (#"{"username": "\#(String(repeating: "é", count: 513))"}"#, ["Content-Type": "application/json"], 400, "'username'"),
            ]
            for (body, headers, status, mention) in cases {
                let response = try await app.client.send(.post, "/api/users/login/passkey/options", headers: headers, body: Array((body ?? "").utf8))
                XCTAssertEqual(response.status.code, status, "\(body ?? ""): \(response.bodyString)")
                let reason = try response.decode(ErrorAnswer.self).reason
                XCTAssertTrue(reason.contains(mention), "\(body ?? ""): \(reason)")
            }
        }
    }

    private func loginOptions(_ body: String?, on app: TestApp) async throws -> TestResponse {
        guard let body else { return try await app.client.send(.post, "/api/users/login/passkey/options") }
        return try await app.client.send(
            .post, "/api/users/login/passkey/options", headers: ["Content-Type": "application/json"], body: Array(body.utf8))
    }

    private func allowList(_ username: String, on app: TestApp) async throws -> [Descriptor] {
        let response = try await app.client.send(.post, "/api/users/login/passkey/options", json: ["username": username])
        XCTAssertEqual(response.status.code, 200, response.bodyString)
        return try response.decode(Request.self).allowCredentials
    }
}
