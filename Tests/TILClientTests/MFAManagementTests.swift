import AppTesting
import Foundation
import OneTimePasswords
import TILClient
import XCTest

/// `client.mfa`: turning TOTP on and off, the recovery codes, and the password change that
/// needs the second factor too, against a live server.
final class MFAManagementTests: XCTestCase {
    static let proofMissing = "TOTP is on: give 'code' (from the authenticator app) or 'recoveryCode' as well."

    func testEnableStatusDisableRoundTrip() async throws {
        try await LiveServer.run { server in
            let (user, password) = try await server.makeUser()
            let til = server.client()
            try await til.login(username: user.username, password: password)
            let off = try await til.mfa.status()
            XCTAssertEqual(off, MFAStatus(totp: false, recoveryCodesRemaining: 0, passkeys: 0))

            let secret = try await server.enrol(with: til)
            let authenticator = TOTP(secret: secret)
            await assertServerError(400, "'code' must be the 6 digits the authenticator app shows.") { try await til.mfa.confirmTOTP(code: "12ab56") }
            await assertServerError(403, "The code does not match the new secret: check the app's clock and try the next code.") {
                try await til.mfa.confirmTOTP(code: TOTP(secret: Array(secret.reversed())).code(at: server.clock.now))
            }
            let codes = try await til.mfa.confirmTOTP(code: authenticator.code(at: server.clock.now))
            XCTAssertEqual(codes.count, 10)
            XCTAssertEqual(Set(codes).count, 10)
            XCTAssertTrue(codes.allSatisfy { $0.wholeMatch(of: /[A-Z2-7]{4}(-[A-Z2-7]{4}){5}/) != nil }, "\(codes)")
            let on = try await til.mfa.status()
            XCTAssertEqual(on, MFAStatus(totp: true, recoveryCodesRemaining: 10, passkeys: 0))
            await assertServerError(409, "TOTP is already on; turn it off first to enrol another app.") { try await til.mfa.startTOTP() }

            server.clock.advance(steps: 1)
            let code = authenticator.code(at: server.clock.now)
            await assertServerError(403, Self.proofMissing) { try await til.mfa.disableTOTP(currentPassword: password, proof: nil) }
            await assertServerError(403, "The current password is wrong.") { try await til.mfa.disableTOTP(currentPassword: "wrong", proof: .totp(code)) }
            try await til.mfa.disableTOTP(currentPassword: password, proof: .totp(code))
            let offAgain = try await til.mfa.status()
            XCTAssertEqual(offAgain, off)
            let oneStep = try await server.client().login(username: user.username, password: password)
            XCTAssertEqual(oneStep.user.id, user.id, "without TOTP the password alone logs in again")
        }
    }

    func testNewRecoveryCodesReplaceTheWholeSet() async throws {
        try await LiveServer.run { server in
            let holder = try await server.totpUser()
            let til = try await server.client(loggedInAs: holder)

            await assertServerError(403, "The code is wrong or was already used.") {
                try await til.mfa.regenerateRecoveryCodes(currentPassword: holder.password, proof: .totp(holder.wrongCode()))
            }
            let fresh = try await til.mfa.regenerateRecoveryCodes(currentPassword: holder.password, proof: .recoveryCode(holder.recoveryCodes[1]))
            XCTAssertEqual(fresh.count, 10)
            XCTAssertTrue(Set(fresh).isDisjoint(with: holder.recoveryCodes))
            let status = try await til.mfa.status()
            XCTAssertEqual(status.recoveryCodesRemaining, 10)

            let old = try await secondFactorChallenge { try await server.client().login(username: holder.user.username, password: holder.password) }
            await assertServerError(401, "The code is wrong or was already used.") {
                try await server.client().completeSecondFactor(old, recoveryCode: holder.recoveryCodes[2])
            }
            let token = try await server.client().completeSecondFactor(old, recoveryCode: fresh[0])
            XCTAssertEqual(token.recoveryCodesRemaining, 9)

            try await til.mfa.disableTOTP(currentPassword: holder.password, proof: .recoveryCode(fresh[1]))
            await assertServerError(409, "TOTP is not on for this account.") {
                try await til.mfa.regenerateRecoveryCodes(currentPassword: holder.password, proof: .recoveryCode(fresh[2]))
            }
        }
    }

    func testAPasswordChangeNeedsTheSecondFactorToo() async throws {
        try await LiveServer.run { server in
            let holder = try await server.totpUser()
            let til = try await server.client(loggedInAs: holder)

            await assertServerError(403, Self.proofMissing) { try await til.account.changePassword(current: holder.password, new: "a new password") }
            try await til.account.changePassword(current: holder.password, new: "a new password", proof: .totp(holder.nextCode()))
            let again = try await secondFactorChallenge { try await server.client().login(username: holder.user.username, password: "a new password") }
            XCTAssertEqual(again.methods, ["totp", "recovery_code"], "the new password still needs the second factor")
        }
    }
}
