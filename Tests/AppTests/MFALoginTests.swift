import AppTesting
import Crypt
import Foundation
import OneTimePasswords
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// A password login for an account with TOTP on stops at a 401 with an mfaToken; the second
/// step with a code (RFC 6238: the clock's step ±1, each step once) or a recovery code gives
/// the pair, the session recording how it was proven (`amr`).
final class MFALoginTests: XCTestCase {
    func testTheFirstStepAnswers401WithAnMFATokenAndNoSession() async throws {
        try await withMFAApp { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            let sessionsBefore = try await app.number("SELECT count(*)::int AS n FROM sessions WHERE user_id = \(enrolled.user.id)")
            let response = try await app.client.login(enrolled.user.username)
            XCTAssertEqual(response.status.code, 401)
            XCTAssertEqual(response.headers["WWW-Authenticate"], #"Basic realm="TIL""#)
            XCTAssertEqual(response.headers["Cache-Control"], "no-store")
            let answer = try response.decode(MFARequired.self)
            XCTAssertEqual(answer.error, true)
            XCTAssertEqual(answer.reason, "A second factor is required.")
            XCTAssertTrue(answer.mfaRequired)
            XCTAssertEqual(answer.methods, ["totp", "recovery_code"])
            XCTAssertGreaterThanOrEqual(answer.mfaToken.utf8.count, 43, "256 bits")
            XCTAssertFalse(response.bodyString.contains("\"value\""), "no token issued")
            let sessionsAfter = try await app.number("SELECT count(*)::int AS n FROM sessions WHERE user_id = \(enrolled.user.id)")
            XCTAssertEqual(sessionsAfter, sessionsBefore)
            let stored = try await app.number("SELECT count(*)::int AS n FROM mfa_challenges WHERE digest = \(SHA256.hex(of: answer.mfaToken))")
            XCTAssertEqual(stored, 1, "stored as its digest")

            let wrongPassword = try await app.client.login(enrolled.user.username, "wrong-password")
            XCTAssertEqual(wrongPassword.status.code, 401)
            XCTAssertNil(try? wrongPassword.decode(MFARequired.self), "a wrong password gets no mfaToken")
        }
    }

    func testACodeCompletesTheLoginWithTheScopesAskedForAndAmr() async throws {
        try await withMFAApp { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            let token = try await app.mfaToken(enrolled.user.username, scope: "acronyms:write account")
            let response = try await app.completeLogin(["mfaToken": token, "code": enrolled.code(at: clock)])
            XCTAssertEqual(response.status.code, 200, response.bodyString)
            XCTAssertEqual(response.headers["Cache-Control"], "no-store")
            let answer = try response.decode(Token.self)
            XCTAssertEqual(answer.scopes, [.acronymsWrite, .account])
            XCTAssertNil(answer.recoveryCodesRemaining)
            let observed1 = try await app.client.meStatus(answer.value)
            XCTAssertEqual(observed1, 200)

            let sessions = try await app.client.send(.get, "/api/users/me/sessions", auth: .bearer(answer.value))
            let listed = try sessions.decode([SessionInfo].self)
            XCTAssertEqual(listed.first { $0.id == answer.id }?.amr, ["pwd", "otp", "mfa"])
            XCTAssertEqual(listed.first { $0.id == enrolled.session.id }?.amr, ["pwd"], "a password-only login")

            let again = try await app.completeLogin(["mfaToken": token, "code": enrolled.code(at: clock, offset: 1)])
            XCTAssertEqual(again.status.code, 401)
            XCTAssertEqual(try again.decode(ErrorBody.self).reason, "The mfaToken is no longer valid.", "single use")
        }
    }

    /// One step of drift either way is accepted, two are not; a step once used is refused, in
    /// a new login too, and so is every step before it.
    func testTheWindowIsOneStepEitherSideAndEachStepIsUsedOnce() async throws {
        try await withMFAApp { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            clock.advance(steps: 5)
            for offset in [-2, 2] {
                let token = try await app.mfaToken(enrolled.user.username)
                let response = try await app.completeLogin(["mfaToken": token, "code": enrolled.code(at: clock, offset: offset)])
                XCTAssertEqual(response.status.code, 401, "offset \(offset)")
                XCTAssertEqual(try response.decode(ErrorBody.self).reason, SecondFactors.wrongCode)
            }
            for offset in [-1, 0, 1] {
                let token = try await app.mfaToken(enrolled.user.username)
                let response = try await app.completeLogin(["mfaToken": token, "code": enrolled.code(at: clock, offset: offset)])
                XCTAssertEqual(response.status.code, 200, "offset \(offset): \(response.bodyString)")
            }
            for offset in [-1, 0, 1] {
                let token = try await app.mfaToken(enrolled.user.username)
                let replay = try await app.completeLogin(["mfaToken": token, "code": enrolled.code(at: clock, offset: offset)])
                XCTAssertEqual(replay.status.code, 401, "replayed offset \(offset)")
            }
            clock.advance(steps: 2)
            let token = try await app.mfaToken(enrolled.user.username)
            let next = try await app.completeLogin(["mfaToken": token, "code": enrolled.code(at: clock)])
            XCTAssertEqual(next.status.code, 200, "a later step works: \(next.bodyString)")
        }
    }

    func testTheMFATokenExpiresAfterFiveMinutes() async throws {
        try await withMFAApp { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            let token = try await app.mfaToken(enrolled.user.username)
            clock.advance(seconds: 301)
            let late = try await app.completeLogin(["mfaToken": token, "code": enrolled.code(at: clock)])
            XCTAssertEqual(late.status.code, 401)
            XCTAssertEqual(late.headers["WWW-Authenticate"], #"Basic realm="TIL""#)
            XCTAssertEqual(try late.decode(ErrorBody.self).reason, "The mfaToken is no longer valid.")

            let fresh = try await app.mfaToken(enrolled.user.username)
            clock.advance(seconds: 290)
            let inTime = try await app.completeLogin(["mfaToken": fresh, "code": enrolled.code(at: clock)])
            XCTAssertEqual(inTime.status.code, 200, inTime.bodyString)
        }
    }

    /// The fifth wrong code ends the mfaToken: the right code after it is refused.
    func testFiveWrongCodesEndTheMFAToken() async throws {
        try await withMFAApp(settings: ["LOGIN_MAX_FAILURES": "20"]) { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            let token = try await app.mfaToken(enrolled.user.username)
            let right = enrolled.code(at: clock)
            let wrong = String(format: "%06d", (Int(right)! + 1) % 1_000_000)
            for attempt in 1...5 {
                let response = try await app.completeLogin(["mfaToken": token, "code": wrong])
                XCTAssertEqual(response.status.code, 401, "attempt \(attempt)")
                let reason = try response.decode(ErrorBody.self).reason
                XCTAssertEqual(reason.hasSuffix("The mfaToken is no longer valid."), attempt == 5, reason)
            }
            let sixth = try await app.completeLogin(["mfaToken": token, "code": right])
            XCTAssertEqual(sixth.status.code, 401)
            XCTAssertEqual(try sixth.decode(ErrorBody.self).reason, "The mfaToken is no longer valid.")
            let other = try await app.mfaToken(enrolled.user.username)
            let fine = try await app.completeLogin(["mfaToken": other, "code": right])
            XCTAssertEqual(fine.status.code, 200, "a new login is not affected: \(fine.bodyString)")
        }
    }

    /// Each recovery code logs in once; the answer says how many are left; amr without `otp`.
    func testARecoveryCodeLogsInOnceAndCountsDown() async throws {
        try await withMFAApp { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            XCTAssertEqual(enrolled.recoveryCodes.count, 10)
            let token = try await app.mfaToken(enrolled.user.username)
            let response = try await app.completeLogin(["mfaToken": token, "recoveryCode": enrolled.recoveryCodes[3]])
            XCTAssertEqual(response.status.code, 200, response.bodyString)
            let answer = try response.decode(Token.self)
            XCTAssertEqual(answer.recoveryCodesRemaining, 9)
            let sessions = try await app.client.send(.get, "/api/users/me/sessions", auth: .bearer(answer.value))
            XCTAssertEqual(try sessions.decode([SessionInfo].self).first { $0.id == answer.id }?.amr, ["pwd", "mfa"])

            let second = try await app.mfaToken(enrolled.user.username)
            let reused = try await app.completeLogin(["mfaToken": second, "recoveryCode": enrolled.recoveryCodes[3]])
            XCTAssertEqual(reused.status.code, 401, "a used recovery code is gone")
            let status = try await app.client.send(.get, "/api/users/me/mfa", auth: .bearer(answer.value)).decode(MFAStatus.self)
            XCTAssertEqual(status, MFAStatus(totp: true, recoveryCodesRemaining: 9, passkeys: 0))
        }
    }

    /// Every recovery code spent: the last answer says 0, and `methods` then offers only TOTP.
    func testRecoveryCodesUsedUp() async throws {
        try await withMFAApp(settings: ["LOGIN_MAX_FAILURES": "20"]) { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            for (index, code) in enrolled.recoveryCodes.enumerated() {
                let token = try await app.mfaToken(enrolled.user.username)
                let response = try await app.completeLogin(["mfaToken": token, "recoveryCode": code])
                XCTAssertEqual(try response.decode(Token.self).recoveryCodesRemaining, 9 - index)
            }
            let response = try await app.client.login(enrolled.user.username)
            XCTAssertEqual(try response.decode(MFARequired.self).methods, ["totp"])
        }
    }

    /// The administrator scope is checked at the first step, as for any login; the mfaToken
    /// carries only what that step allowed.
    func testScopesAreCheckedAtTheFirstStep() async throws {
        try await withMFAApp { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            let refused = try await app.client.login(enrolled.user.username, scope: "clients:write")
            XCTAssertEqual(refused.status.code, 400, refused.bodyString)
            XCTAssertTrue(refused.bodyString.contains("invalid_scope"), refused.bodyString)
            let wrongUser = try await app.client.login(enrolled.user.username, "not-the-password", scope: "account")
            XCTAssertNil(try? wrongUser.decode(MFARequired.self))
        }
    }

    /// A password change (which ends the first step's proof) ends pending mfaTokens.
    func testAPasswordChangeEndsPendingMFATokens() async throws {
        try await withMFAApp { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            let token = try await app.mfaToken(enrolled.user.username)
            try await app.til.administration.setPassword("brand-new-password", of: enrolled.user.username)
            let response = try await app.completeLogin(["mfaToken": token, "code": enrolled.code(at: clock)])
            XCTAssertEqual(try response.decode(ErrorBody.self).reason, "The mfaToken is no longer valid.")
        }
    }

    /// Token introspection (RFC 7662) tells a resource server how the login was proven.
    func testIntrospectionShowsHowTheLoginWasProven() async throws {
        try await withMFAApp { app, clock in
            let server = try await app.oauthClient(["grant_types": ["client_credentials"], "redirect_uris": [String]()])
            let enrolled = try await app.enrolledUser(clock: clock)
            let token = try await app.mfaToken(enrolled.user.username)
            let login = try await app.completeLogin(["mfaToken": token, "code": enrolled.code(at: clock)]).decode(Token.self)
            for (access, amr) in [(login.value, ["pwd", "otp", "mfa"]), (enrolled.session.value, ["pwd"])] {
                let response = try await app.client.postForm("/oauth/introspect", [("token", access)], auth: server.basic)
                XCTAssertEqual(try response.jsonObject()["amr"] as? [String], amr, response.bodyString)
            }
        }
    }
}
