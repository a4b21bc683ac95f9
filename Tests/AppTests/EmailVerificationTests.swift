import AppTesting
import Crypt
import Foundation
import Logging
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// A new account's address: queued for verification with the insert, shown only to the account
/// itself, proven by a link's token that is single-use and lives 24 hours.
final class EmailVerificationTests: XCTestCase {
    func testANewUsersAddressIsVerifiedByTheLinkMailedToIt() async throws {
        let capture = LogCapture()
        try await withTestApp(logger: capture.logger()) { app in
            let created = try await app.createUser("timc", name: "Tim", email: "Tim@TIL.example")
            XCTAssertEqual(created.status.code, 200, created.bodyString)
            XCTAssertFalse(created.bodyString.contains("email"), "the public user never shows an address: \(created.bodyString)")
            let user = try created.decode(PublicUser.self)

            let mails = try await app.queuedMails()
            XCTAssertEqual(mails.map(\.kind), ["email-verification"], "queued with the insert")
            let mail = try XCTUnwrap(mails.first)
            XCTAssertEqual(mail.recipient, "Tim@TIL.example", "stored and mailed as given (NFC), its case kept")
            XCTAssertEqual(mail.subject, "Confirm your email address for TIL")
            XCTAssertTrue(mail.text.contains("timc"), mail.text)
            XCTAssertTrue(mail.text.contains("The link works for 24 hours, once."), mail.text)
            let token = try XCTUnwrap(mail.linkToken, mail.text)
            XCTAssertEqual(Base64URL.decode(token)?.count, 32, "256 random bits")
            XCTAssertTrue(mail.html.contains("/verify-email?token=\(token)"), "both parts carry the link")
            let stored = try await app.til.db.query("SELECT digest FROM email_verifications").map { try $0.decode(column: "digest", as: String.self) }
            XCTAssertEqual(stored, [SHA256.hex(of: token)], "only the digest is stored")

            let tim = try await app.client.session("timc", "s3cret-pass")
            let before = try await app.client.profile(tim.value)
            XCTAssertEqual(before, AccountProfile(id: user.id, name: "Tim", username: "timc", email: "Tim@TIL.example", emailVerified: false))

            let verified = try await app.client.verifyEmail(token)
            XCTAssertEqual(verified.status.code, 204, verified.bodyString)
            let after = try await app.client.profile(tim.value)
            XCTAssertEqual(after.emailVerified, true)
            XCTAssertEqual(after.email, "Tim@TIL.example")

            let again = try await app.client.verifyEmail(token)
            XCTAssertEqual(again.status.code, 400, "single-use")
            XCTAssertEqual(try again.decode(ErrorAnswer.self).reason, AccountEmails.invalidToken.reason)
        }
        let events = ["email.verification-sent", "email.verified"]
        for event in events {
            XCTAssertTrue(capture.lines.contains { $0.names(event) }, "audited: \(event)")
        }
        let tokenLines = capture.lines.filter { $0.fullText.contains("verify-email?token=") }
        XCTAssertEqual(tokenLines.count, 0, "no token in the log")
    }

    func testAnExpiredOrUnknownTokenIsRefusedAndBadBodiesAreClear400s() async throws {
        try await withTestApp { app in
            let created = try await app.createUser("ann", name: "Ann", email: "ann@til.example")
            XCTAssertEqual(created.status.code, 200, created.bodyString)
            let token = try await app.verificationToken(mailedTo: "ann@til.example")
            try await app.til.db.execute("UPDATE email_verifications SET expires_at = now() - interval '1 second'")
            let expired = try await app.client.verifyEmail(token)
            XCTAssertEqual(expired.status.code, 400, "expired: \(expired.bodyString)")
            let stored = try await app.storedEmail(of: try created.decode(PublicUser.self).id)
            XCTAssertFalse(stored.verified)

            for body: [String: String] in [["token": ""], ["token": String(repeating: "A", count: 129)], ["token": "not-a-token"]] {
                let refused = try await app.client.send(.post, "/api/users/email/verify", json: body)
                XCTAssertEqual(refused.status.code, 400, "\(body): \(refused.bodyString)")
                XCTAssertEqual(try refused.decode(ErrorAnswer.self).reason, AccountEmails.invalidToken.reason)
            }
            let missing = try await app.client.send(.post, "/api/users/email/verify", json: ["tokens": "x"])
            XCTAssertEqual(missing.status.code, 400, missing.bodyString)
            XCTAssertTrue(try missing.decode(ErrorAnswer.self).reason.contains("token"), missing.bodyString)
            let nul = try await app.client.send(
                .post, "/api/users/email/verify", headers: ["Content-Type": "application/json"], body: Array(#"{"token":"a\u0000b"}"#.utf8))
            XCTAssertEqual(nul.status.code, 400, nul.bodyString)
        }
    }

    func testCreatingAUserRefusesBadAddressesWithClearReasonsAndQueuesNothing() async throws {
        try await withTestApp { app in
            let admin = try await app.client.session("admin")
            let cases: [(String, String)] = [
                (String(repeating: "a", count: 60) + "@" + String(repeating: "b", count: 231) + ".example", "'email' must be at most 254 bytes."),
                ("a@b@til.example", "'email' must hold exactly one '@'."),
                ("tim\u{1}@til.example", "'email' must not contain control characters."),
                ("tim@til", "'email' must have a domain with a dot after the '@' (like example.com)."),
                ("", "'email' must not be empty."),
            ]
            for (index, (email, reason)) in cases.enumerated() {
                let response = try await app.createUser("bad\(index)", email: email)
                XCTAssertEqual(response.status.code, 400, "\(email.debugDescription): \(response.bodyString)")
                XCTAssertEqual(try response.decode(ErrorAnswer.self).reason, reason)
            }
            let nul = try await app.client.send(
                .post, "/api/users", headers: ["Content-Type": "application/json"],
                body: Array(#"{"name":"N","username":"nul","password":"s3cret-pass","email":"a\u0000@b.example"}"#.utf8), auth: .bearer(admin.value))
            XCTAssertEqual(nul.status.code, 400, nul.bodyString)
            let users = try await app.til.db.query("SELECT 1 FROM users WHERE username LIKE 'bad%' OR username = 'nul'")
            XCTAssertEqual(users.count, 0, "no user made")
            let queued = try await app.queuedMails()
            XCTAssertEqual(queued, [], "no mail queued")
            let noEmail = try await app.client.send(
                .post, "/api/users", json: ["name": "Plain", "username": "plain", "password": "s3cret-pass"], auth: .bearer(admin.value))
            XCTAssertEqual(noEmail.status.code, 200, "the address stays optional")
            let none = try await app.queuedMails()
            XCTAssertEqual(none, [])
        }
    }

    /// The public `User` never shows an address: the list, one user, an acronym's user; and
    /// `GET /api/users/me` shows it only to a token holding `account`.
    func testOnlyTheAccountItselfSeesItsAddress() async throws {
        try await withTestApp { app in
            let user = try await app.user("vera", email: "vera@til.example", verified: true)
            let acronym = try await Acronym.create(user: user, on: app)
            for path in ["/api/users", "/api/users/\(user.id)", "/api/acronyms/\(acronym.id)/user", "/api/users?limit=5"] {
                let response = try await app.client.send(.get, path)
                XCTAssertEqual(response.status.code, 200, path)
                XCTAssertFalse(response.bodyString.contains("vera@til.example"), "\(path): \(response.bodyString)")
                XCTAssertFalse(response.bodyString.contains("email"), "\(path): \(response.bodyString)")
            }
            let narrow = try await app.client.session("vera", scope: "acronyms:write")
            let narrowMe = try await app.client.send(.get, "/api/users/me", auth: .bearer(narrow.value))
            XCTAssertEqual(narrowMe.status.code, 200)
            XCTAssertFalse(narrowMe.bodyString.contains("email"), "no address without the account scope: \(narrowMe.bodyString)")
            let full = try await app.client.session("vera", scope: "account")
            let profile = try await app.client.profile(full.value)
            XCTAssertEqual(profile.email, "vera@til.example")
            XCTAssertEqual(profile.emailVerified, true)
            XCTAssertNil(profile.pendingEmail)
        }
    }

    /// A production server without `SMTP_URL`: the routes that must send answer 503, creating a
    /// user with an address still works (its mail waits in the outbox).
    func testWithoutMailTheRoutesThatMustSendAre503AndCreationStillQueues() async throws {
        try await TestApp.run(mail: MailSettings(delivery: .notConfigured)) { app in
            let created = try await app.createUser("queued", name: "Q", email: "q@til.example")
            XCTAssertEqual(created.status.code, 200, created.bodyString)
            let queued = try await app.queuedMails(to: "q@til.example")
            XCTAssertEqual(queued.count, 1, "queued for when mail is configured")
            let session = try await app.client.session("queued", "s3cret-pass")
            let change = try await app.client.changeEmail(to: "new@til.example", password: "s3cret-pass", bearer: session.value)
            let resend = try await app.client.send(.post, "/api/users/me/email/verification", auth: .bearer(session.value))
            for response in [change, resend] {
                XCTAssertEqual(response.status.code, 503, response.bodyString)
                XCTAssertEqual(try response.decode(ErrorAnswer.self).reason, "Mail is not configured on this server.")
            }
            let after = try await app.queuedMails()
            XCTAssertEqual(after.count, 1, "nothing more queued")
        }
    }
}
