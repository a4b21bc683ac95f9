import AppTesting
import Crypt
import Foundation
import OneTimePasswords
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// RFC 9470 step-up on TIL's sensitive routes: every way a person signs in records when
/// (`sessions.auth_time`), a refresh keeps it, and a session whose last authentication is older
/// than `REAUTH_WINDOW` gets the `insufficient_user_authentication` challenge on exactly the
/// operations the document marks `x-recent-authentication`. The sign-in is made old in SQL,
/// never by waiting.
final class RecentAuthenticationTests: XCTestCase {
    func testEverySignInRecordsItsAuthenticationTimeAndARefreshKeepsIt() async throws {
        try await withMFAApp { app, clock in
            let plain = try await User.create(username: "plain", on: app)
            let basic = try await app.client.session("plain")
            try await assertJustAuthenticated(basic.id, amr: ["pwd"], on: app, "a Basic login")

            let enrolled = try await app.enrolledUser(username: "coded", clock: clock)
            let second = try await app.completeLogin(["mfaToken": try await app.mfaToken("coded"), "code": enrolled.code(at: clock)])
            try await assertJustAuthenticated(try second.decode(LoginAnswer.self).id, amr: ["pwd", "otp", "mfa"], on: app, "a second step")

            let (_, authenticator) = try await PasskeyCeremony.holder("keyed", on: app)
            var key = authenticator
            let passkey = try await PasskeyCeremony(client: app.client).logIn(&key)
            XCTAssertEqual(passkey.status.code, 200, passkey.bodyString)
            try await assertJustAuthenticated(try passkey.decode(LoginAnswer.self).id, amr: ["hwk", "user"], on: app, "a passkey login")

            try await BrowserClient(app.client).signIn("plain")
            let browser = try await app.number(
                "SELECT count(*)::int AS n FROM sessions WHERE user_id = \(plain.id) AND kind = 'browser' AND auth_time > now() - interval '5 seconds'")
            XCTAssertEqual(browser, 1, "the sign-in page's session")

            try await app.ageAuthentication(of: basic.id, by: 3000)
            let refreshed = try await app.client.refreshed(basic.refreshToken)
            XCTAssertEqual(refreshed.id, basic.id)
            let kept = try await app.authentication(of: basic.id).secondsAgo
            XCTAssertEqual(try XCTUnwrap(kept), 3000, accuracy: 5, "a refresh is no authentication")
        }
    }

    /// Every bearer operation, called with a session signed in 11 minutes ago: the challenge on
    /// each one the document marks, and never on any other.
    func testTheDocumentMarksExactlyTheOperationsThatNeedARecentAuthentication() async throws {
        try await withTestApp { app in
            let contract = try await OpenAPIContract.served(by: app)
            var marked: [String] = []
            let scopes = try contract.documentedScopes()
            for operation in try contract.documentedOperations() where operation.needsBearerToken
                && scopes.isSuperset(of: operation.bearerScopes) {  // OpenID Connect's: a token of a client's
                let fixture = try await OperationFixture.make(on: app)
                let needed = operation.bearerScopes.isEmpty ? nil : operation.bearerScopes.joined(separator: " ")
                let session = try await app.client.session(fixture.user.username, scope: needed)
                try await app.ageAuthentication(of: session.id)
                let proof = try await fixture.secondFactor(for: operation, on: app)
                let response = try await fixture.send(operation, in: contract, to: app.client, bearer: session.value, overriding: proof)
                if operation.spec["x-recent-authentication"] == .bool(true) {
                    assertStepUp(response, "\(operation)")
                    marked.append("\(operation)")
                } else {
                    XCTAssertNotEqual(
                        response.headers["WWW-Authenticate"]?.contains("insufficient_user_authentication"), true,
                        "\(operation) is not marked x-recent-authentication but asked for one: \(response.bodyString)")
                }
            }
            XCTAssertEqual(Set(marked), [
                "POST /api/users/me/mfa/totp", "POST /api/users/me/mfa/totp/confirm", "POST /api/users/me/passkeys/options",
                "POST /api/users/me/passkeys", "DELETE /api/users/me/passkeys/{passkeyID}", "PUT /api/users/me/email",
                "POST /api/users/me/tokens",
            ])
        }
    }

    func testAStaleSessionChangesNothingAndIsAudited() async throws {
        let capture = LogCapture()
        try await withTestApp(logger: capture.logger()) { app in
            let (token, _) = try await PasskeyCeremony.holder("leia", on: app)
            let session = try await app.client.send(.get, "/api/users/me/sessions", auth: .bearer(token))
            let id = try XCTUnwrap(try session.decode([SessionInfo].self).first?.id)
            try await app.ageAuthentication(of: id)
            let passkeys = try await app.client.send(.get, "/api/users/me/passkeys", auth: .bearer(token))
            let passkeyID = try XCTUnwrap(try passkeys.decode([PasskeySummary].self).first?.id)

            assertStepUp(try await app.client.send(.delete, "/api/users/me/passkeys/\(passkeyID)", auth: .bearer(token)))
            assertStepUp(try await app.client.send(.post, "/api/users/me/mfa/totp", auth: .bearer(token)))
            let still = try await app.client.send(.get, "/api/users/me/passkeys", auth: .bearer(token))
            XCTAssertEqual(try still.decode([PasskeySummary].self).count, 1, "the passkey stays")
            let pending = try await app.number("SELECT count(*)::int AS n FROM totp_credentials")
            XCTAssertEqual(pending, 0, "no enrolment started")
            let lines = capture.lines.filter { $0.metadata["event"] == "reauth.required" }
            XCTAssertEqual(lines.count, 2, capture.lines.map(\.fullText).joined(separator: "\n"))
            XCTAssertTrue(lines.allSatisfy { $0.metadata["session-id"] == id.uuidString && !$0.fullText.contains(token) })
        }
    }

    func testTheWindowIsReauthWindow() async throws {
        try await withTestApp(settings: ["REAUTH_WINDOW": "60"]) { app in
            _ = try await User.create(username: "han", on: app)
            let session = try await app.client.session("han", scope: "account")
            try await app.ageAuthentication(of: session.id, by: 50)
            let inside = try await app.client.send(.post, "/api/users/me/mfa/totp", auth: .bearer(session.value))
            XCTAssertEqual(inside.status.code, 201, inside.bodyString)
            try await app.ageAuthentication(of: session.id, by: 70)
            assertStepUp(try await app.client.send(.post, "/api/users/me/mfa/totp", auth: .bearer(session.value)), maxAge: 60)
        }
    }

    /// A change whose body proves the password (and with TOTP on a code) is its own
    /// re-authentication: an old session may make it, and it renews the session's.
    func testAnInlineProofIsARecentAuthenticationAndRenewsTheSessions() async throws {
        try await withMFAApp { app, clock in
            let enrolled = try await app.enrolledUser(username: "lando", clock: clock)
            let bearer = TestAuth.bearer(enrolled.session.value)
            try await app.ageAuthentication(of: enrolled.session.id)
            let renewed = try await app.client.send(
                .post, "/api/users/me/mfa/recovery-codes", json: ["currentPassword": "password", "code": enrolled.code(at: clock)],
                auth: bearer)
            XCTAssertEqual(renewed.status.code, 200, renewed.bodyString)
            try await assertJustAuthenticated(enrolled.session.id, amr: ["pwd", "otp", "mfa"], on: app, "new recovery codes")
            let recoveryCode = try XCTUnwrap(try renewed.decode(RecoveryCodes.self).recoveryCodes.first)

            try await app.ageAuthentication(of: enrolled.session.id)
            let change = ["currentPassword": "password", "newPassword": "another-password", "recoveryCode": recoveryCode]
            let changed = try await app.client.send(.put, "/api/users/me/password", json: change, auth: bearer)
            XCTAssertEqual(changed.status.code, 204, changed.bodyString)
            try await assertJustAuthenticated(enrolled.session.id, amr: ["pwd", "mfa"], on: app, "a password change")
            let next = try await app.client.send(.post, "/api/users/me/passkeys/options", auth: bearer)
            XCTAssertEqual(next.status.code, 200, "the next change within the window needs nothing more: \(next.bodyString)")

            try await app.ageAuthentication(of: enrolled.session.id)
            let wrong = try await app.client.send(
                .post, "/api/users/me/mfa/recovery-codes", json: ["currentPassword": "nope", "code": enrolled.code(at: clock, offset: 1)],
                auth: bearer)
            XCTAssertEqual(wrong.status.code, 403)
            let still = try await app.authentication(of: enrolled.session.id).secondsAgo
            XCTAssertEqual(try XCTUnwrap(still), 660, accuracy: 5, "a failed proof renews nothing")
        }
    }

    func testTheSessionsListShowsAuthTimeAndAmr() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "chewie", on: app)
            let session = try await app.client.session("chewie", scope: "account")
            try await app.ageAuthentication(of: session.id, by: 1200)
            let list = try await app.client.send(.get, "/api/users/me/sessions", auth: .bearer(session.value))
            let entry = try XCTUnwrap(try list.decode([SessionInfo].self).first)
            XCTAssertEqual(entry.amr, ["pwd"])
            XCTAssertEqual(try XCTUnwrap(entry.authTime).timeIntervalSinceNow, -1200, accuracy: 5)
            XCTAssertTrue(list.bodyString.contains(#""authTime":""#), list.bodyString)
        }
    }

    /// A device's session (RFC 8628) inherits the sign-in of the browser session that approved it.
    func testADeviceSessionInheritsTheApprovingBrowsersSignIn() async throws {
        try await withTestApp { app in
            let user = try await User.create(username: "rey", on: app)
            let browser = BrowserClient(app.client)
            try await browser.signIn("rey")
            try await app.ageAuthentications(ofUser: user.id, by: 300)
            let device = try await app.client.startedDevice()
            let decided = try await browser.decideDevice(device.userCode, approve: true)
            XCTAssertEqual(decided.status, .ok, decided.bodyString)
            let polled = try await app.client.pollDevice(device.deviceCode)
            let token = try XCTUnwrap(try polled.jsonObject()["access_token"] as? String, polled.bodyString)
            let ago = try await app.til.db.query("""
                SELECT extract(epoch FROM now() - s.auth_time)::float8 AS ago
                FROM tokens t JOIN sessions s ON s.id = t.session_id WHERE t.digest = \(SHA256.hex(of: token))
                """).first?.decode(column: "ago", as: Double?.self)
            XCTAssertEqual(try XCTUnwrap(ago ?? nil), 300, accuracy: 5)
        }
    }

    private func assertJustAuthenticated(
        _ sessionID: UUID, amr: [String], on app: TestApp, _ message: String, file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        let (ago, recorded) = try await app.authentication(of: sessionID)
        let seconds = try XCTUnwrap(ago, "\(message): no auth_time", file: file, line: line)
        XCTAssertLessThan(seconds, 5, message, file: file, line: line)
        XCTAssertEqual(recorded, amr, message, file: file, line: line)
    }
}
