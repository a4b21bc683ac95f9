import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// A reset never gets around a second factor (ASVS 6.4.3): for an account with TOTP on, the
/// first confirm answers 401 with an mfaToken bound to that reset (no login takes it, and it
/// takes no login's), the reset token staying valid; the second, with a code or a recovery
/// code, resets. Wrong codes count as a login's do, and the reset's fifth ends both tokens.
final class PasswordResetSecondFactorTests: XCTestCase {
    func testTheFirstConfirmAsksForTheSecondFactorAndChangesNothing() async throws {
        try await withMFAApp { app, clock in
            let (enrolled, token) = try await Self.resetOfEnrolledUser(app, clock)
            let response = try await app.confirmReset(["token": token, "newPassword": "wanted-new-secret"])
            XCTAssertEqual(response.status.code, 401, response.bodyString)
            XCTAssertNil(response.headers["WWW-Authenticate"], "a second factor, not credentials")
            XCTAssertEqual(response.headers["Cache-Control"], "no-store")
            let answer = try response.decode(MFARequired.self)
            XCTAssertTrue(answer.mfaRequired)
            XCTAssertEqual(answer.methods, ["totp", "recovery_code"])
            XCTAssertGreaterThanOrEqual(answer.mfaToken.utf8.count, 43)
            let bound = try await app.number("""
                SELECT count(*)::int AS n FROM mfa_challenges
                WHERE digest = \(SHA256.hex(of: answer.mfaToken)) AND password_reset = \(SHA256.hex(of: token))
                """)
            XCTAssertEqual(bound, 1, "bound to this reset")
            let access = try await app.client.meStatus(enrolled.session.value)
            XCTAssertEqual(access, 200, "no session ended yet")
            let oldPassword = try await app.client.login(enrolled.user.username, "password")
            XCTAssertEqual(try oldPassword.decode(MFARequired.self).mfaRequired, true, "the old password still proves the first step")
            let page = try await app.client.send(.get, "/reset-password?token=\(token)")
            XCTAssertEqual(page.status.code, 200, "the reset token stays valid")
        }
    }

    func testACodeCompletesTheResetWithoutStartingASession() async throws {
        try await withMFAApp { app, clock in
            let (enrolled, token) = try await Self.resetOfEnrolledUser(app, clock)
            let mfaToken = try await Self.secondStep(app, token, password: "wanted-new-secret")
            let sessionsBefore = try await app.number("SELECT count(*)::int AS n FROM sessions WHERE user_id = \(enrolled.user.id)")
            let done = try await app.confirmReset(["token": token, "mfaToken": mfaToken, "code": enrolled.code(at: clock)])
            XCTAssertEqual(done.status.code, 204, done.bodyString)
            let sessionsAfter = try await app.number("SELECT count(*)::int AS n FROM sessions WHERE user_id = \(enrolled.user.id)")
            XCTAssertEqual(sessionsAfter, sessionsBefore, "no session started")
            let live = try await app.liveSessions(of: enrolled.user.id)
            XCTAssertEqual(live, 0, "every session ended")
            let newPassword = try await app.client.login(enrolled.user.username, "wanted-new-secret")
            XCTAssertEqual(try newPassword.decode(MFARequired.self).mfaRequired, true, "TOTP stays on: the new password is its first step")
            let resetTwice = try await app.confirmReset(["token": token, "mfaToken": mfaToken, "code": enrolled.code(at: clock, offset: 1)])
            XCTAssertEqual(resetTwice.status.code, 400, "the reset is used up")
        }
    }

    func testARecoveryCodeCompletesItAndAPasswordGivenAgainWins() async throws {
        try await withMFAApp { app, clock in
            let (enrolled, token) = try await Self.resetOfEnrolledUser(app, clock)
            let mfaToken = try await Self.secondStep(app, token, password: "first-choice-secret")
            let recovery = enrolled.recoveryCodes[0].lowercased()
            let done = try await app.confirmReset([
                "token": token, "mfaToken": mfaToken, "recoveryCode": recovery, "newPassword": "second-choice-secret",
            ])
            XCTAssertEqual(done.status.code, 204, done.bodyString)
            let left = try await app.number("SELECT count(*)::int AS n FROM recovery_codes WHERE user_id = \(enrolled.user.id)")
            XCTAssertEqual(left, enrolled.recoveryCodes.count - 1, "the recovery code is spent")
            let first = try await app.client.login(enrolled.user.username, "first-choice-secret")
            XCTAssertNil(try? first.decode(MFARequired.self), "the first choice was replaced")
            let second = try await app.client.login(enrolled.user.username, "second-choice-secret")
            XCTAssertEqual(try second.decode(MFARequired.self).mfaRequired, true)
        }
    }

    func testTheResetsMFATokenIsNoLoginsAndTheLoginsIsNoResets() async throws {
        try await withMFAApp { app, clock in
            let (enrolled, token) = try await Self.resetOfEnrolledUser(app, clock)
            let resetMFAToken = try await Self.secondStep(app, token, password: "wanted-new-secret")
            let asLogin = try await app.completeLogin(["mfaToken": resetMFAToken, "code": enrolled.code(at: clock)])
            XCTAssertEqual(asLogin.status.code, 401, asLogin.bodyString)
            XCTAssertEqual(try asLogin.decode(ErrorBody.self).reason, SecondStepRefusal.tokenGone.reason)
            let options = try await app.client.send(.post, "/api/users/login/passkey/options", json: ["mfaToken": resetMFAToken])
            XCTAssertEqual(options.status.code, 401, "a login's passkey options refuse it too: \(options.bodyString)")

            let loginMFAToken = try await app.mfaToken(enrolled.user.username)
            let asReset = try await app.confirmReset(["token": token, "mfaToken": loginMFAToken, "code": enrolled.code(at: clock)])
            XCTAssertEqual(asReset.status.code, 401, asReset.bodyString)
            XCTAssertEqual(try asReset.decode(ErrorBody.self).reason, PasswordResetRefusal.mfaTokenGone.reason)

            let (other, otherToken) = try await Self.resetOfEnrolledUser(app, clock)
            let othersMFAToken = try await Self.secondStep(app, otherToken, password: "others-new-secret")
            let crossed = try await app.confirmReset(["token": token, "mfaToken": othersMFAToken, "code": enrolled.code(at: clock)])
            XCTAssertEqual(crossed.status.code, 401, "another reset's mfaToken: \(crossed.bodyString)")
            let stillOld = try await app.client.login(other.user.username, "password")
            XCTAssertEqual(try stillOld.decode(MFARequired.self).mfaRequired, true)

            let done = try await app.confirmReset(["token": token, "mfaToken": resetMFAToken, "code": enrolled.code(at: clock)])
            XCTAssertEqual(done.status.code, 204, "the refused tries used no code up: \(done.bodyString)")
        }
    }

    func testFiveWrongCodesEndBothTokensOverEveryMFATokenOfTheReset() async throws {
        try await withMFAApp { app, clock in
            let (enrolled, token) = try await Self.resetOfEnrolledUser(app, clock)
            var mfaToken = try await Self.secondStep(app, token, password: "wanted-new-secret")
            for attempt in 1...4 {
                if attempt == 3 {  // a new first confirm: a new mfaToken, the old one gone, the count kept
                    let renewed = try await Self.secondStep(app, token, password: "wanted-new-secret")
                    let old = try await app.confirmReset(["token": token, "mfaToken": mfaToken, "code": "000000"])
                    XCTAssertEqual(try old.decode(ErrorBody.self).reason, PasswordResetRefusal.mfaTokenGone.reason)
                    mfaToken = renewed
                }
                let wrong = try await app.confirmReset(["token": token, "mfaToken": mfaToken, "code": "000000"])
                XCTAssertEqual(wrong.status.code, 401, "attempt \(attempt)")
                XCTAssertEqual(try wrong.decode(ErrorBody.self).reason, PasswordResetRefusal.wrongCode.reason, "attempt \(attempt)")
            }
            let fifth = try await app.confirmReset(["token": token, "mfaToken": mfaToken, "code": "000000"])
            XCTAssertEqual(fifth.status.code, 401)
            XCTAssertEqual(try fifth.decode(ErrorBody.self).reason, PasswordResetRefusal.wrongCodeEndedReset.reason)
            let right = try await app.confirmReset(["token": token, "mfaToken": mfaToken, "code": enrolled.code(at: clock)])
            XCTAssertEqual(right.status.code, 400, "the reset is gone: \(right.bodyString)")
            let again = try await app.confirmReset(["token": token, "newPassword": "wanted-new-secret"])
            XCTAssertEqual(again.status.code, 400, "and so is its token")
            let left = try await app.number("SELECT count(*)::int AS n FROM mfa_challenges WHERE user_id = \(enrolled.user.id)")
            XCTAssertEqual(left, 0)
            let counted = try await app.number("""
                SELECT count(*)::int AS n FROM login_failures WHERE username = \(SecondFactors.failureKey(enrolled.user.id))
                """)
            XCTAssertEqual(counted, 5, "each wrong code counted under the account's key, as at login")
        }
    }

    func testWrongCodesAreThrottledAsALoginsAre() async throws {
        try await withMFAApp(settings: ["LOGIN_MAX_FAILURES": "3"]) { app, clock in
            let (enrolled, token) = try await Self.resetOfEnrolledUser(app, clock)
            let mfaToken = try await Self.secondStep(app, token, password: "wanted-new-secret")
            for _ in 1...3 {
                let wrong = try await app.confirmReset(["token": token, "mfaToken": mfaToken, "code": "000000"])
                XCTAssertEqual(wrong.status.code, 401)
            }
            let throttled = try await app.confirmReset(["token": token, "mfaToken": mfaToken, "code": enrolled.code(at: clock)])
            XCTAssertEqual(throttled.status.code, 429, throttled.bodyString)
            XCTAssertNotNil(throttled.headers["Retry-After"])
            let hash = try await app.til.db.query("SELECT password_hash FROM users WHERE id = \(enrolled.user.id)").first?
                .decode(column: "password_hash", as: String.self)
            XCTAssertEqual(hash, enrolled.user.passwordHash, "the right code, unchecked, changed nothing")
        }
    }

    /// A user with TOTP on and a verified address, and the token of a reset mailed to it.
    static func resetOfEnrolledUser(_ app: TestApp, _ clock: TestClock) async throws -> (EnrolledUser, String) {
        let enrolled = try await app.enrolledUser(clock: clock)
        let email = "\(enrolled.user.username.prefix(8).lowercased())@mail.example"
        try await app.til.db.execute("UPDATE users SET email = \(email), email_verified_at = now() WHERE id = \(enrolled.user.id)")
        return (enrolled, try await app.resetToken(for: enrolled.user.username, mailedTo: email))
    }

    /// The first confirm, asserting its 401; the mfaToken.
    static func secondStep(_ app: TestApp, _ token: String, password: String, file: StaticString = #filePath, line: UInt = #line) async throws -> String {
        let response = try await app.confirmReset(["token": token, "newPassword": password])
        XCTAssertEqual(response.status.code, 401, response.bodyString, file: file, line: line)
        return try response.decode(MFARequired.self).mfaToken
    }
}
