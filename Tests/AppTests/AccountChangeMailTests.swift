import AppTesting
import Foundation
import OneTimePasswords
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// ASVS 6.3.7's notices, read from `mail_outbox` (the sender loop does not run in tests): a
/// password change and every change of second factors queue one, in the change's own
/// transaction, to the account's verified address only; a refused change queues nothing, and no
/// notice holds a secret or a link.
final class AccountChangeMailTests: XCTestCase {
    func testEveryChangeOfHowTheAccountSignsInIsNoticedOnce() async throws {
        try await withMFAApp { app, clock in
            let user = try await User.create(username: "jyn", on: app)
            try await app.til.db.execute("UPDATE users SET email = 'jyn@example.com', email_verified_at = now() WHERE id = \(user.id)")
            let session = try await app.client.session("jyn", scope: "account")
            let bearer = TestAuth.bearer(session.value)

            let started = try await app.client.send(.post, "/api/users/me/mfa/totp", auth: bearer)
            let secret = try XCTUnwrap(Base32.decode(try started.decode(TOTPEnrolment.self).secret))
            /// `fields` with the app's current code sent to `path`, then the clock a step on (a code is used once).
            func withCode(_ method: HTTPMethod, _ path: String, _ fields: [String: String], expecting status: Int) async throws {
                let response = try await app.client.send(
                    method, path, json: fields.merging(["code": TOTP(secret: secret).code(at: clock.now)]) { $1 }, auth: bearer)
                XCTAssertEqual(response.status.code, status, "\(path): \(response.bodyString)")
                clock.advance(steps: 1)
            }
            try await withCode(.post, "/api/users/me/mfa/totp/confirm", [:], expecting: 200)
            try await withCode(.post, "/api/users/me/mfa/recovery-codes", ["currentPassword": "password"], expecting: 200)
            let change = ["currentPassword": "password", "newPassword": "another-password"]
            let refused = try await app.client.send(.put, "/api/users/me/password", json: change.merging(["code": "000000"]) { $1 }, auth: bearer)
            XCTAssertEqual(refused.status.code, 403, "a wrong code: no change, no notice")
            try await withCode(.put, "/api/users/me/password", change, expecting: 204)
            try await withCode(.delete, "/api/users/me/mfa/totp", ["currentPassword": "another-password"], expecting: 204)

            var key = try PasskeyCeremony.authenticator()
            let passkey = try await PasskeyCeremony(client: app.client).registered(&key, token: session.value, name: "Yellow <key>")
            let removed = try await app.client.send(.delete, "/api/users/me/passkeys/\(passkey.id)", auth: bearer)
            XCTAssertEqual(removed.status.code, 204)

            let mails = try await Self.outbox(on: app)
            XCTAssertEqual(mails.map(\.subject), [
                "Two-step sign-in is on for your TIL account", "New recovery codes for your TIL account", "Your TIL password was changed",
                "Two-step sign-in is off for your TIL account", "A passkey was added to your TIL account",
                "A passkey was removed from your TIL account",
            ])
            XCTAssertEqual(mails.map(\.kind), ["second-factor-changed", "second-factor-changed", "password-changed"] + Array(repeating: "second-factor-changed", count: 3))
            XCTAssertTrue(mails.allSatisfy { $0.recipient == "jyn@example.com" && $0.text.contains("jyn") })
            XCTAssertTrue(mails[4].text.contains("“Yellow <key>”"), mails[4].text)
            XCTAssertTrue(mails[4].html.contains("Yellow &lt;key&gt;"), "escaped in the HTML part")
            for mail in mails {
                XCTAssertFalse(mail.text.contains("password\"") || mail.text.contains("another-password") || mail.text.contains("http"), mail.text)
                XCTAssertFalse(mail.text.contains(session.value))
            }
        }
    }

    func testNoVerifiedAddressNoNotice() async throws {
        try await withTestApp { app in
            let unverified = try await User.create(username: "cassian", on: app)
            try await app.til.db.execute("UPDATE users SET email = 'cassian@example.com' WHERE id = \(unverified.id)")
            _ = try await User.create(username: "bodhi", on: app)
            for name in ["cassian", "bodhi"] {
                let session = try await app.client.session(name, scope: "account")
                let changed = try await app.client.send(
                    .put, "/api/users/me/password", json: ["currentPassword": "password", "newPassword": "another-password"],
                    auth: .bearer(session.value))
                XCTAssertEqual(changed.status.code, 204, changed.bodyString)
                let pending = try await app.client.send(.post, "/api/users/me/mfa/totp", auth: .bearer(session.value))
                XCTAssertEqual(pending.status.code, 201)
                let dropped = try await app.client.send(
                    .delete, "/api/users/me/mfa/totp", json: ["currentPassword": "another-password"], auth: .bearer(session.value))
                XCTAssertEqual(dropped.status.code, 204)
            }
            let queued = try await Self.outbox(on: app)
            XCTAssertEqual(queued.count, 0, "\(queued.map(\.subject))")
        }
    }

    /// Two password changes racing on one code: one change, so one notice (the loser's
    /// transaction never ran, or rolled back with its row).
    func testTwoChangesRacingOnOneCodeQueueOneNotice() async throws {
        try await withMFAApp { app, clock in
            let enrolled = try await app.enrolledUser(username: "saw", clock: clock)
            try await app.til.db.execute("UPDATE users SET email = 'saw@example.com', email_verified_at = now() WHERE id = \(enrolled.user.id)")
            clock.advance(steps: 1)
            let (client, token) = (app.client, enrolled.session.value)
            let change = ["currentPassword": "password", "newPassword": "another-password", "code": enrolled.code(at: clock)]
            let request: @Sendable () async throws -> TestResponse = {
                try await client.send(.put, "/api/users/me/password", json: change, auth: .bearer(token))
            }
            let statuses = try await statusCodes(of: [request, request])
            XCTAssertEqual(statuses.sorted(), [204, 403], "one code, one change")
            let queued = try await Self.outbox(on: app)
            XCTAssertEqual(queued.map(\.kind), ["password-changed"], "one change, one notice")
        }
    }

    struct QueuedMail {
        let kind: String
        let recipient: String
        let subject: String
        let text: String
        let html: String
    }

    static func outbox(on app: TestApp) async throws -> [QueuedMail] {
        try await app.til.db.query("SELECT kind, recipient, subject, text_body, html_body FROM mail_outbox WHERE NOT decoy ORDER BY seq").map {
            QueuedMail(
                kind: try $0.decode(column: "kind"), recipient: try $0.decode(column: "recipient"), subject: try $0.decode(column: "subject"),
                text: try $0.decode(column: "text_body"), html: try $0.decode(column: "html_body"))
        }
    }
}
