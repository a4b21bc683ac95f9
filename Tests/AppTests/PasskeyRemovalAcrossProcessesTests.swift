import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Removing and renaming a passkey behind a balancer: two `til-server` processes over one
/// database. One passkey removed from both at once (the API's DELETE, the account page's
/// form) is removed once, and the other answer is the 404 of one already gone;
/// a rename on one process is what the other lists.
final class PasskeyRemovalAcrossProcessesTests: ServerProcessTestCase {
    func testOnePasskeyRemovedOnBothProcessesAtOnceIsRemovedOnce() async throws {
        try await withTestApp { app in
            servers = try await ServerProcess.healthy(2, settings: [:])
            let (a, b) = (servers[0].client, servers[1].client)
            let owner = try await User.create(username: "Zoë-keys", on: app)
            let token = try await a.session(owner.username, scope: "account").value

            // The API: a rename on A (NFD), listed by B (NFC); then one DELETE to each at once, three times.
            let renamed = try await PasskeyRows.insert(for: owner.id, name: "Laptop", on: app)
            let patch = try await a.send(.patch, "/api/users/me/passkeys/\(renamed)", json: ["name": "Bu\u{308}ro"], auth: .bearer(token))
            XCTAssertEqual(patch.status.code, 200, patch.bodyString)
            let listed = try await b.send(.get, "/api/users/me/passkeys", auth: .bearer(token)).decode([PasskeySummary].self)
            XCTAssertEqual(listed.map(\.name), ["Büro"])
            for trial in 1...3 {
                let id = trial == 1 ? renamed : try await PasskeyRows.insert(for: owner.id, on: app)
                let codes = try await statusCodes(of: [a, b].map { client in
                    { try await client.send(.delete, "/api/users/me/passkeys/\(id)", auth: .bearer(token)) }
                })
                XCTAssertEqual(codes.sorted(), [204, 404], "trial \(trial)")
            }

            // The account page: one browser session, its Remove form posted to both at once.
            let browser = BrowserClient(a)
            let login = try await browser.submit(
                try HTMLForm.only(in: try await browser.get("/login")), ["username": owner.username, "password": "password"])
            XCTAssertEqual(login.status.code, 303, login.bodyString)
            let cookie = "til_session=" + (try XCTUnwrap(browser.cookies["til_session"]))
            for trial in 1...3 {
                let id = try await PasskeyRows.insert(for: owner.id, on: app)
                let page = try await browser.get("/account")
                let remove = try XCTUnwrap(HTMLForm.all(in: page.bodyString)
                    .first { $0.action == "/account/passkeys/\(id.uuidString.lowercased())/remove" })
                let form = Array(remove.fields.map { "\($0.name)=\($0.value)" }.joined(separator: "&").utf8)
                let codes = try await statusCodes(of: [a, b].map { client in
                    { try await client.send(
                        .post, remove.action ?? "", headers: ["Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"], body: form) }
                })
                XCTAssertEqual(codes.sorted(), [303, 404], "trial \(trial)")
            }
            let left = try await app.number("SELECT count(*)::int AS n FROM passkeys WHERE user_id = \(owner.id)")
            XCTAssertEqual(left, 0)
        }
    }
}
