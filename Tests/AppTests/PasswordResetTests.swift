import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// A reset by mail end to end: the request queues a link to the issuer's reset page in the
/// same transaction as the reset it stores; the confirm sets the password once, ends every
/// session of the account and queues the notice. Unknown logins, unverified addresses and an
/// account past its limit get the same 202, with a decoy instead of a mail.
final class PasswordResetTests: XCTestCase {
    func testTheLinkResetsThePasswordOnceAndEndsEverySession() async throws {
        try await withTestApp { app in
            let (user, email) = try await app.userWithVerifiedEmail()
            let api = try await app.client.session(user.username)
            let browser = BrowserClient(app.client)
            _ = try await browser.signIn(user.username)
            let signedIn = try await browser.isSignedIn()
            XCTAssertTrue(signedIn)

            let response = try await app.requestReset(user.username)
            XCTAssertEqual(response.status.code, 202, response.bodyString)
            XCTAssertEqual(response.headers["Cache-Control"], "no-store")
            XCTAssertEqual(try response.decode(PasswordResetAccepted.self), PasswordResetController.accepted(lifetime: "30 minutes"))
            let rows = try await app.til.db.query("""
                SELECT subject, text_body, html_body FROM mail_outbox WHERE recipient = \(email) AND kind = 'password-reset'
                """)
            let mail = try XCTUnwrap(rows.first)
            let text = try mail.decode(column: "text_body", as: String.self)
            XCTAssertEqual(try mail.decode(column: "subject", as: String.self), "Reset your TIL password")
            XCTAssertTrue(text.contains("http://127.0.0.1:8080/reset-password?token="), "the issuer's page: \(text)")
            XCTAssertTrue(text.contains("30 minutes"), text)
            XCTAssertTrue(text.contains(user.username), text)
            let token = try XCTUnwrap(TestApp.resetToken(inMail: text))
            XCTAssertGreaterThanOrEqual(token.utf8.count, 43, "256 bits")
            XCTAssertTrue(try mail.decode(column: "html_body", as: String.self).contains(token))
            let stored = try await app.number("SELECT count(*)::int AS n FROM password_resets WHERE digest = \(SHA256.hex(of: token))")
            XCTAssertEqual(stored, 1, "stored as its digest only")

            let page = try await app.client.send(.get, "/reset-password?token=\(token)")
            XCTAssertEqual(page.status.code, 200, "showing the page spends nothing")
            let confirmed = try await app.confirmReset(["token": token, "newPassword": "brand-new-secret"])
            XCTAssertEqual(confirmed.status.code, 204, confirmed.bodyString)

            let old = try await app.client.login(user.username, "password")
            XCTAssertEqual(old.status.code, 401, "the old password is gone")
            _ = try await app.client.session(user.username, "brand-new-secret")
            let access = try await app.client.meStatus(api.value)
            XCTAssertEqual(access, 401, "the API session ended")
            let refresh = try await app.client.refreshStatus(api.refreshToken)
            XCTAssertEqual(refresh, 401, "its refresh family too")
            let stillSignedIn = try await browser.isSignedIn()
            XCTAssertFalse(stillSignedIn, "the browser session ended")
            let notices = try await app.til.db.query("""
                SELECT subject FROM mail_outbox WHERE recipient = \(email) AND kind = 'password-changed' AND NOT decoy
                """).map { try $0.decode(column: "subject", as: String.self) }
            XCTAssertEqual(notices, ["Your TIL password was reset"], "the password-changed notice is queued")

            let again = try await app.confirmReset(["token": token, "newPassword": "another-new-secret"])
            XCTAssertEqual(again.status.code, 400, "single use")
            XCTAssertEqual(try again.decode(ErrorBody.self).reason, PasswordResetRefusal.tokenGone.reason)
            _ = try await app.client.session(user.username, "brand-new-secret")
        }
    }

    func testUnknownLoginsAndUnverifiedAddressesGetTheSameAnswerAndADecoy() async throws {
        try await withTestApp { app in
            let (known, email) = try await app.userWithVerifiedEmail()
            let unverified = try await User.create(on: app)
            try await app.til.db.execute("UPDATE users SET email = 'unverified@mail.example' WHERE id = \(unverified.id)")
            let knownAnswer = try await app.requestReset(known.username)
            for login in ["nobody-\(UUID())", unverified.username, "unverified@mail.example", "nobody@mail.example"] {
                let answer = try await app.requestReset(login)
                XCTAssertEqual(answer.status.code, 202, login)
                XCTAssertEqual(answer.body, knownAnswer.body, "the same body for \(login)")
            }
            let mails = try await app.mails(.passwordReset, to: email)
            XCTAssertEqual(mails, 1)
            let decoys = try await app.decoys(.passwordReset)
            XCTAssertEqual(decoys, 4, "one decoy per unknown login: the same work")
            let unsent = try await app.number("SELECT count(*)::int AS n FROM mail_outbox WHERE recipient = 'unverified@mail.example'")
            XCTAssertEqual(unsent, 0, "an unverified address gets nothing")
            let resets = try await app.number("SELECT count(*)::int AS n FROM password_resets")
            XCTAssertEqual(resets, 1)
        }
    }

    func testTheEmailAddressNamesTheAccountToo() async throws {
        try await withTestApp { app in
            let (user, email) = try await app.userWithVerifiedEmail()
            let token = try await app.resetToken(for: email, mailedTo: email)
            let confirmed = try await app.confirmReset(["token": token, "newPassword": "by-email-secret"])
            XCTAssertEqual(confirmed.status.code, 204, confirmed.bodyString)
            _ = try await app.client.session(user.username, "by-email-secret")
        }
    }

    func testAnExpiredTokenIsRefused() async throws {
        try await withTestApp { app in
            let (user, email) = try await app.userWithVerifiedEmail()
            let token = try await app.resetToken(for: user.username, mailedTo: email)
            try await app.til.db.execute("UPDATE password_resets SET expires_at = now() - interval '1 second'")
            let page = try await app.client.send(.get, "/reset-password?token=\(token)")
            XCTAssertEqual(page.status.code, 400)
            XCTAssertTrue(page.bodyString.contains("This link no longer works"), page.bodyString)
            let confirmed = try await app.confirmReset(["token": token, "newPassword": "too-late-secret"])
            XCTAssertEqual(confirmed.status.code, 400)
            XCTAssertEqual(try confirmed.decode(ErrorBody.self).reason, PasswordResetRefusal.tokenGone.reason)
            _ = try await app.client.session(user.username, "password")
        }
    }

    func testTheTokenLivesPasswordResetTTL() async throws {
        try await withTestApp(settings: ["PASSWORD_RESET_TTL": "600"]) { app in
            let (user, email) = try await app.userWithVerifiedEmail()
            let token = try await app.resetToken(for: user.username, mailedTo: email)
            let seconds = try await app.number("""
                SELECT round(extract(epoch FROM expires_at - now()))::int AS n FROM password_resets WHERE digest = \(SHA256.hex(of: token))
                """)
            XCTAssertEqual(Double(seconds), 600, accuracy: 2)
            let text = try await app.til.db.query("SELECT text_body FROM mail_outbox WHERE recipient = \(email)").first?
                .decode(column: "text_body", as: String.self)
            XCTAssertTrue(text?.contains("10 minutes") == true, text ?? "")
        }
    }

    func testANewerRequestEndsTheOlderLink() async throws {
        try await withTestApp { app in
            let (user, email) = try await app.userWithVerifiedEmail()
            let older = try await app.resetToken(for: user.username, mailedTo: email)
            let newer = try await app.resetToken(for: user.username, mailedTo: email)
            XCTAssertNotEqual(older, newer)
            let refused = try await app.confirmReset(["token": older, "newPassword": "from-the-old-link"])
            XCTAssertEqual(refused.status.code, 400, refused.bodyString)
            let accepted = try await app.confirmReset(["token": newer, "newPassword": "from-the-new-link"])
            XCTAssertEqual(accepted.status.code, 204, accepted.bodyString)
        }
    }

    func testAPasswordChangeEndsAPendingLink() async throws {
        try await withTestApp { app in
            let (user, email) = try await app.userWithVerifiedEmail()
            let token = try await app.resetToken(for: user.username, mailedTo: email)
            let session = try await app.client.session(user.username, scope: "account")
            let changed = try await app.client.send(
                .put, "/api/users/me/password", json: ["currentPassword": "password", "newPassword": "changed-secret"],
                auth: .bearer(session.value))
            XCTAssertEqual(changed.status.code, 204, changed.bodyString)
            let refused = try await app.confirmReset(["token": token, "newPassword": "from-the-old-link"])
            XCTAssertEqual(refused.status.code, 400, "a link asked for the old password is moot: \(refused.bodyString)")
            _ = try await app.client.session(user.username, "changed-secret")
        }
    }

    func testPastTheAccountsLimitTheAnswerIsTheSameAndNothingMoreIsSent() async throws {
        try await withTestApp { app in
            let (user, email) = try await app.userWithVerifiedEmail()
            var tokens: [String] = []
            for _ in 0..<3 { tokens.append(try await app.resetToken(for: user.username, mailedTo: email)) }
            let fourth = try await app.requestReset(user.username)
            XCTAssertEqual(fourth.status.code, 202)
            XCTAssertEqual(try fourth.decode(PasswordResetAccepted.self), PasswordResetController.accepted(lifetime: "30 minutes"))
            let mails = try await app.mails(.passwordReset, to: email)
            XCTAssertEqual(mails, 3, "no fourth mail within the hour")
            let decoys = try await app.decoys(.passwordReset)
            XCTAssertEqual(decoys, 1)
            let confirmed = try await app.confirmReset(["token": tokens[2], "newPassword": "still-the-third"])
            XCTAssertEqual(confirmed.status.code, 204, "the last link sent still works: \(confirmed.bodyString)")
            try await app.til.db.execute("UPDATE password_reset_requests SET requested_at = requested_at - interval '61 minutes'")
            _ = try await app.resetToken(for: user.username, mailedTo: email)
            let afterAnHour = try await app.mails(.passwordReset, to: email)
            XCTAssertEqual(afterAnHour, 4, "an hour later, a link again")
        }
    }

    func testPastTheAddresssLimit429WithRetryAfter() async throws {
        try await withTestApp { app in
            let limit = app.til.configuration.passwordReset.addressLimit
            for index in 0..<limit {
                let answer = try await app.requestReset("someone-\(index)")
                XCTAssertEqual(answer.status.code, 202, "request \(index)")
            }
            let refused = try await app.requestReset("someone-else")
            XCTAssertEqual(refused.status.code, 429, refused.bodyString)
            let retryAfter = try XCTUnwrap(refused.headers["Retry-After"].flatMap { Int($0) })
            XCTAssertGreaterThan(retryAfter, 3500)
            XCTAssertLessThanOrEqual(retryAfter, 3600)
            let elsewhere = try await app.requestReset("someone-else", headers: ["X-Forwarded-For": "198.51.100.7"])
            XCTAssertEqual(elsewhere.status.code, 429, "X-Forwarded-For is not believed without TRUSTED_PROXIES")
            let counted = try await app.number("SELECT count(*)::int AS n FROM password_reset_requests")
            XCTAssertEqual(counted, limit, "a refusal is not counted")
        }
    }

    func testProductionWithoutSMTPAnswers503ForEveryLogin() async throws {
        try await TestApp.run(mail: MailSettings(delivery: .notConfigured)) { app in
            let (user, _) = try await app.userWithVerifiedEmail()
            for login in [user.username, "nobody"] {
                let answer = try await app.requestReset(login)
                XCTAssertEqual(answer.status.code, 503, login)
                XCTAssertEqual(try answer.decode(ErrorBody.self).reason, "Mail is not configured on this server.")
            }
            let page = BrowserClient(app.client)
            let form = try HTMLForm.only(in: try await page.get("/forgot-password"))
            let posted = try await page.submit(form, ["login": user.username])
            XCTAssertEqual(posted.status.code, 503)
            let rows = try await app.number("SELECT count(*)::int AS n FROM password_reset_requests")
            XCTAssertEqual(rows, 0, "nothing looked up or counted")
        }
    }

    func testTheAuditLogRecordsEachStepAndNeverTheToken() async throws {
        let capture = LogCapture()
        try await withTestApp(logger: capture.logger()) { app in
            let (user, email) = try await app.userWithVerifiedEmail()
            let token = try await app.resetToken(for: user.username, mailedTo: email)
            _ = try await app.requestReset("nobody-at-all")
            _ = try await app.confirmReset(["token": "not-a-token", "newPassword": "some-new-secret"])
            _ = try await app.confirmReset(["token": token, "newPassword": "some-new-secret"])
            let lines = capture.lines
            func events(_ event: String) -> [LogCapture.Line] { lines.filter { $0.names(event) } }
            XCTAssertEqual(events("password-reset.requested").map { $0.metadata["user-id"] ?? $0.metadata["username"] ?? "" },
                           [user.id.uuidString, "nobody-at-all"])
            XCTAssertEqual(events("password-reset.mail-queued").map { $0.metadata["user-id"] }, [user.id.uuidString])
            XCTAssertEqual(events("password-reset.failed").count, 1)
            XCTAssertEqual(events("password-reset.completed").map { $0.metadata["user-id"] }, [user.id.uuidString])
            for line in lines {
                XCTAssertFalse(line.fullText.contains(token), "the token in: \(line.message)")
                XCTAssertFalse(line.fullText.contains(SHA256.hex(of: token)), "its digest in: \(line.message)")
            }
        }
    }
}
