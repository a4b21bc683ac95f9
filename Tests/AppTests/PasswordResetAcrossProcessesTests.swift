import AppTesting
import Foundation
import OneTimePasswords
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Two `til-server` processes over one database: a link requested on one is confirmed on the
/// other (the reset lives in PostgreSQL, the link points at the issuer, not at a process),
/// once; and a reset's second step begun on one completes on the other.
final class PasswordResetAcrossProcessesTests: ServerProcessTestCase {
    func testALinkRequestedOnOneProcessResetsOnTheOtherOnce() async throws {
        try await withTestApp { app in
            let (user, email) = try await app.userWithVerifiedEmail()
            servers = try await ServerProcess.healthy(2, settings: [:])
            let (a, b) = (servers[0].client, servers[1].client)
            let requested = try await app.requestReset(user.username, on: a)
            XCTAssertEqual(requested.status.code, 202, requested.bodyString)
            let token = try await app.newestResetToken(mailedTo: email)
            let page = try await b.send(.get, "/reset-password?token=\(token)")
            XCTAssertEqual(page.status.code, 200, page.bodyString)
            let confirmed = try await app.confirmReset(["token": token, "newPassword": "across-processes"], on: b)
            XCTAssertEqual(confirmed.status.code, 204, confirmed.bodyString)
            let again = try await app.confirmReset(["token": token, "newPassword": "across-again"], on: a)
            XCTAssertEqual(again.status.code, 400, "spent in the other process: \(again.bodyString)")
            let login = try await a.login(user.username, "across-processes")
            XCTAssertEqual(login.status.code, 200, login.bodyString)
        }
    }

    func testASecondStepBegunOnOneProcessCompletesOnTheOther() async throws {
        try await withTestApp { app in
            let enrolled = try await app.enrolledUser(clock: TestClock(Date()))
            try await app.til.db.execute("UPDATE users SET email = 'step@mail.example', email_verified_at = now() WHERE id = \(enrolled.user.id)")
            servers = try await ServerProcess.healthy(2, settings: [:])
            let (a, b) = (servers[0].client, servers[1].client)
            _ = try await app.requestReset(enrolled.user.username, on: b)
            let token = try await app.newestResetToken(mailedTo: "step@mail.example")
            let first = try await app.confirmReset(["token": token, "newPassword": "two-process-secret"], on: a)
            XCTAssertEqual(first.status.code, 401, first.bodyString)
            let mfaToken = try first.decode(MFARequired.self).mfaToken
            let wrong = try await app.confirmReset(["token": token, "mfaToken": mfaToken, "code": "000000"], on: b)
            XCTAssertEqual(wrong.status.code, 401, wrong.bodyString)
            let code = TOTP(secret: enrolled.secret).code(at: Date().addingTimeInterval(30))
            let done = try await app.confirmReset(["token": token, "mfaToken": mfaToken, "code": code], on: b)
            XCTAssertEqual(done.status.code, 204, done.bodyString)
            let resets = try await app.number("SELECT count(*)::int AS n FROM password_resets WHERE user_id = \(enrolled.user.id)")
            XCTAssertEqual(resets, 0, "the reset is spent for both processes")
        }
    }
}
