import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Issue 17: text that looks like something else. A username with a zero-width, bidi or
/// padding character looks like another user's; a User-Agent with terminal controls rewrites
/// the screen of whoever lists the sessions.
final class InvisibleCharacterTests: XCTestCase {
    private struct NewUser: Encodable { var name = "N", username: String, password = "password" }

    private func createUser(_ username: String, on app: TestApp) async throws -> TestResponse {
        try await app.sendRequest(to: "/api/users", method: .post, body: NewUser(username: username), loggedInRequest: true)
    }

    func testUsernamesRefuseFormatCharactersAndPadding() async throws {
        try await withTestApp(settings: ["COMMON_PASSWORD_CHECK": "off"]) { app in
            let formats = [
                "zero\u{200B}width", "\u{202E}nimda", "admin\u{200D}", "\u{FEFF}bom", "soft\u{AD}hyphen", "\u{2066}iso\u{2069}",
                "tag\u{E0041}",
            ]
            for username in formats {
                let response = try await createUser(username, on: app)
                XCTAssertEqual(response.status.code, 400, "\(username.unicodeScalars.map(\.value)): \(response.bodyString)")
                XCTAssertEqual(
                    try response.decode(ErrorAnswer.self).reason,
                    "'username' must not contain invisible formatting characters (Unicode Cf: zero-width, bidi controls).")
            }
            for username in [" admin", "admin ", "\u{3000}admin", "admin\u{A0}", "\u{2003}timc", "timc\u{2029}"] {
                let response = try await createUser(username, on: app)
                XCTAssertEqual(response.status.code, 400, "\(username.unicodeScalars.map(\.value)): \(response.bodyString)")
                XCTAssertEqual(try response.decode(ErrorAnswer.self).reason, "'username' must not begin or end with white space.")
            }
            let inner = try await createUser("tim condon", on: app)
            XCTAssertEqual(inner.status.code, 200, "white space inside a username is still fine: \(inner.bodyString)")
            let accented = try await createUser("Zoë", on: app)
            XCTAssertEqual(accented.status.code, 200, accented.bodyString)
        }
    }

    func testStoredUserAgentsHoldNoControlOrFormatCharacters() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            // In process: C0 controls and DEL never pass the HTTP parser; a proxy's could.
            let agent = "Term\u{1B}[31m\u{9B}2J\u{202E}exe.txt\u{200B}/1.0\u{7F}\u{85} (X11)"
            let login = try await app.client.session(user.username, headers: ["User-Agent": agent])
            _ = try await app.client.session(user.username, headers: ["User-Agent": "\u{200B}\u{9B}\u{202E}"])

            let listed = try await app.client.send(.get, "/api/users/me/sessions", auth: .bearer(login.value))
            XCTAssertEqual(listed.status.code, 200, listed.bodyString)
            let agents = try listed.decode([SessionEntry].self).map(\.userAgent)
            XCTAssertEqual(agents, ["Term[31m2Jexe.txt/1.0 (X11)", nil], "controls and format characters are stripped")
            let rows = try await app.til.db.query("SELECT user_agent FROM sessions WHERE user_id = \(user.id) ORDER BY created_at")
            let stored = try rows.map { try $0.decode(column: "user_agent", as: String?.self) }
            XCTAssertEqual(stored, ["Term[31m2Jexe.txt/1.0 (X11)", nil])
        }
    }
}
