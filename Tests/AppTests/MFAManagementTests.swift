import AppTesting
import Foundation
import OneTimePasswords
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Turning TOTP off, renewing recovery codes and changing the password all need proof: the
/// current password and, with TOTP on, a code or a recovery code.
final class MFAManagementTests: XCTestCase {
    func testDisablingNeedsThePasswordAndASecondFactor() async throws {
        try await withMFAApp(settings: ["LOGIN_MAX_FAILURES": "20"]) { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            let bearer = TestAuth.bearer(enrolled.session.value)
            let cases: [([String: String], Int, String)] = [
                (["currentPassword": "password"], 403, "TOTP is on: give 'code'"),
                (["currentPassword": "wrong", "code": enrolled.code(at: clock)], 403, "The current password is wrong."),
                (["currentPassword": "password", "code": enrolled.code(at: clock, offset: 3)], 403, SecondFactors.wrongCode),
                (["currentPassword": "password", "recoveryCode": "AAAA-AAAA-AAAA-AAAA-AAAA-AAAA"], 403, SecondFactors.wrongCode),
            ]
            for (body, status, reason) in cases {
                let response = try await app.client.send(.delete, "/api/users/me/mfa/totp", json: body, auth: bearer)
                XCTAssertEqual(response.status.code, status, "\(body): \(response.bodyString)")
                XCTAssertTrue(try response.decode(ErrorBody.self).reason.hasPrefix(reason), response.bodyString)
            }
            let observed1 = try await app.mfaToken(enrolled.user.username).isEmpty
            XCTAssertEqual(observed1, false, "still on")

            let off = try await app.client.send(
                .delete, "/api/users/me/mfa/totp", json: ["currentPassword": "password", "code": enrolled.code(at: clock)], auth: bearer)
            XCTAssertEqual(off.status.code, 204, off.bodyString)
            let observed2 = try await app.client.login(enrolled.user.username).status.code
            XCTAssertEqual(observed2, 200, "a password is enough again")
            let left = try await app.number("SELECT count(*)::int AS n FROM recovery_codes WHERE user_id = \(enrolled.user.id)")
            XCTAssertEqual(left, 0, "the recovery codes went too")
        }
    }

    func testARecoveryCodeDisablesToo() async throws {
        try await withMFAApp { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            let off = try await app.client.send(
                .delete, "/api/users/me/mfa/totp", json: ["currentPassword": "password", "recoveryCode": enrolled.recoveryCodes[0]],
                auth: .bearer(enrolled.session.value))
            XCTAssertEqual(off.status.code, 204, off.bodyString)
        }
    }

    func testRegeneratingReplacesTheWholeSet() async throws {
        try await withMFAApp { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            let bearer = TestAuth.bearer(enrolled.session.value)
            let missing = try await app.client.send(.post, "/api/users/me/mfa/recovery-codes", json: ["currentPassword": "password"], auth: bearer)
            XCTAssertEqual(missing.status.code, 403, missing.bodyString)
            let renewed = try await app.client.send(
                .post, "/api/users/me/mfa/recovery-codes", json: ["currentPassword": "password", "recoveryCode": enrolled.recoveryCodes[0]],
                auth: bearer)
            XCTAssertEqual(renewed.status.code, 200, renewed.bodyString)
            let codes = try renewed.decode(RecoveryCodes.self).recoveryCodes
            XCTAssertEqual(codes.count, 10)
            XCTAssertTrue(Set(codes).isDisjoint(with: enrolled.recoveryCodes))

            let token = try await app.mfaToken(enrolled.user.username)
            let old = try await app.completeLogin(["mfaToken": token, "recoveryCode": enrolled.recoveryCodes[1]])
            XCTAssertEqual(old.status.code, 401, "the old set is gone")
            let new = try await app.completeLogin(["mfaToken": token, "recoveryCode": codes[1]])
            XCTAssertEqual(try new.decode(Token.self).recoveryCodesRemaining, 9)
        }
    }

    func testRegeneratingWithoutTOTPIs409AndAPendingEnrolmentGoesWithThePassword() async throws {
        try await withMFAApp { app, _ in
            let user = try await User.create(on: app)
            let session = try await app.client.session(user.username, scope: "account")
            let renew = try await app.client.send(
                .post, "/api/users/me/mfa/recovery-codes", json: ["currentPassword": "password"], auth: .bearer(session.value))
            XCTAssertEqual(renew.status.code, 409, renew.bodyString)
            _ = try await app.client.send(.post, "/api/users/me/mfa/totp", auth: .bearer(session.value))
            let wrong = try await app.client.send(
                .delete, "/api/users/me/mfa/totp", json: ["currentPassword": "nope"], auth: .bearer(session.value))
            XCTAssertEqual(wrong.status.code, 403)
            let removed = try await app.client.send(
                .delete, "/api/users/me/mfa/totp", json: ["currentPassword": "password"], auth: .bearer(session.value))
            XCTAssertEqual(removed.status.code, 204, removed.bodyString)
            let observed3 = try await app.number("SELECT count(*)::int AS n FROM totp_credentials WHERE user_id = \(user.id)")
            XCTAssertEqual(observed3, 0)
        }
    }

    /// With TOTP on there is no password path around the second factor.
    func testAPasswordChangeNeedsASecondFactorWhileTOTPIsOn() async throws {
        try await withMFAApp { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            let bearer = TestAuth.bearer(enrolled.session.value)
            let change = ["currentPassword": "password", "newPassword": "another-password"]
            let without = try await app.client.send(.put, "/api/users/me/password", json: change, auth: bearer)
            XCTAssertEqual(without.status.code, 403, without.bodyString)
            XCTAssertTrue(try without.decode(ErrorBody.self).reason.contains("'code'"))
            let wrong = try await app.client.send(
                .put, "/api/users/me/password", json: change.merging(["code": enrolled.code(at: clock, offset: -3)]) { $1 }, auth: bearer)
            XCTAssertEqual(wrong.status.code, 403, wrong.bodyString)
            let observed4 = try await app.client.login(enrolled.user.username, "another-password").status.code
            XCTAssertEqual(observed4, 401, "unchanged")
            let changed = try await app.client.send(
                .put, "/api/users/me/password", json: change.merging(["code": enrolled.code(at: clock)]) { $1 }, auth: bearer)
            XCTAssertEqual(changed.status.code, 204, changed.bodyString)
            let observed5 = try await app.mfaToken(enrolled.user.username, password: "another-password").isEmpty
            XCTAssertEqual(observed5, false)
        }
    }

    /// Each change is an audit line; none holds a code or a secret.
    func testChangesAreAudited() async throws {
        let capture = LogCapture()
        try await withMFAApp(logger: capture.logger()) { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            let token = try await app.mfaToken(enrolled.user.username)
            _ = try await app.completeLogin(["mfaToken": token, "code": "000000"])
            _ = try await app.completeLogin(["mfaToken": token, "recoveryCode": enrolled.recoveryCodes[0]])
            _ = try await app.client.send(
                .post, "/api/users/me/mfa/recovery-codes", json: ["currentPassword": "password", "code": enrolled.code(at: clock)],
                auth: .bearer(enrolled.session.value))
            clock.advance(steps: 1)
            _ = try await app.client.send(
                .delete, "/api/users/me/mfa/totp", json: ["currentPassword": "password", "code": enrolled.code(at: clock)],
                auth: .bearer(enrolled.session.value))
            let events = capture.lines.compactMap { $0.metadata["event"] }
            for event in ["mfa.totp-enabled", "login.mfa-required", "login.mfa-failed", "mfa.recovery-code-used", "login.mfa-succeeded",
                          "mfa.recovery-codes-regenerated", "mfa.totp-disabled"] {
                XCTAssertTrue(events.contains(event), "\(event) missing from \(events)")
            }
            for line in capture.lines {
                XCTAssertFalse(line.fullText.contains(enrolled.recoveryCodes[0]), line.message)
                XCTAssertFalse(line.fullText.contains(token), line.message)
            }
        }
    }
}
