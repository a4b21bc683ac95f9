import AppTesting
import Foundation
import Postgres
import Synchronization
import TILClient
import XCTest
@testable import App

/// The step-up challenge (RFC 9470) as TILClient meets it, against a live server whose
/// sessions are made old in SQL: without a `reauthenticate` closure a sensitive change throws
/// `reauthenticationRequired`; with one it asks (the password, then a code when TOTP is on),
/// re-authenticates and sends the change once more.
final class StepUpTests: XCTestCase {
    func testWithoutAReauthenticatorTheChangeThrowsAndReauthenticateFixesIt() async throws {
        try await LiveServer.run { server in
            let (user, password) = try await server.makeUser()
            let til = server.client()
            try await til.login(username: user.username, password: password)
            try await server.ageSignIns(of: user)
            do {
                _ = try await til.mfa.startTOTP()
                XCTFail("an old sign-in changed a second factor")
            } catch TILError.reauthenticationRequired(let need) {
                XCTAssertEqual(need, ReauthenticationNeed(maxAge: 600))
                XCTAssertEqual(TILError.reauthenticationRequired(need).status, 401)
            }
            await assertServerError(403, "The current password is wrong.") { try await til.account.reauthenticate(password: "wrong-one") }
            try await til.account.reauthenticate(password: password)
            let enrolment = try await til.mfa.startTOTP()
            XCTAssertFalse(enrolment.secret.isEmpty)
        }
    }

    func testAReauthenticatorIsAskedOnceAndTheChangeGoesThrough() async throws {
        try await LiveServer.run { server in
            let (user, password) = try await server.makeUser()
            let asked = Mutex<[ReauthenticationNeed]>([])
            let til = server.client { $0.reauthenticate = { need in
                asked.withLock { $0.append(need) }
                return ReauthenticationAnswer(password: password)
            } }
            try await til.login(username: user.username, password: password)
            _ = try await til.mfa.startTOTP()
            XCTAssertEqual(asked.withLock { $0 }, [], "a fresh sign-in asks nothing")
            try await server.ageSignIns(of: user)
            _ = try await til.mfa.startTOTP()
            XCTAssertEqual(asked.withLock { $0 }, [ReauthenticationNeed(maxAge: 600)])
            let sessions = try await til.account.sessions()
            XCTAssertEqual(sessions.first { $0.current }?.amr, ["pwd"])
            XCTAssertLessThan(abs(try XCTUnwrap(sessions.first { $0.current }?.authTime).timeIntervalSinceNow), 5)
        }
    }

    func testWithTOTPOnTheCodeIsAskedAfterThePasswordWhichIsNotTypedTwice() async throws {
        try await LiveServer.run { server in
            let holder = try await server.totpUser()
            let asked = Mutex<[ReauthenticationNeed]>([])
            let configured = server.client { $0.reauthenticate = { need in
                asked.withLock { $0.append(need) }
                return need.needsSecondFactor
                    ? ReauthenticationAnswer(password: "", proof: .totp(holder.nextCode()))
                    : ReauthenticationAnswer(password: holder.password)
            } }
            let challenge = try await secondFactorChallenge {
                try await configured.login(username: holder.user.username, password: holder.password)
            }
            try await configured.completeSecondFactor(challenge, code: holder.nextCode())
            try await server.ageSignIns(of: holder.user)
            await assertServerError(404, "No passkey with that id.") { try await configured.passkeys.remove(UUID()) }
            XCTAssertEqual(asked.withLock { $0 }, [ReauthenticationNeed(maxAge: 600), ReauthenticationNeed(maxAge: 600, methods: ["totp", "recovery_code"])])
            let amr = try await configured.account.sessions().first { $0.current }?.amr
            XCTAssertEqual(amr, ["pwd", "otp", "mfa"])
        }
    }

    func testGivingUpOrAWrongPasswordIsTheAnswer() async throws {
        try await LiveServer.run { server in
            let (user, password) = try await server.makeUser()
            let giveUp = server.client { $0.reauthenticate = { _ in nil } }
            try await giveUp.login(username: user.username, password: password)
            let wrong = server.client { $0.reauthenticate = { _ in ReauthenticationAnswer(password: "not-the-password") } }
            try await wrong.login(username: user.username, password: password)
            try await server.ageSignIns(of: user)
            do {
                _ = try await giveUp.mfa.startTOTP()
                XCTFail("no answer, no change")
            } catch TILError.reauthenticationRequired {}
            await assertServerError(403, "The current password is wrong.") { try await wrong.mfa.startTOTP() }
        }
    }
}

extension LiveServer {
    /// Moves every sign-in of `user` 11 minutes into the past: older than the default `REAUTH_WINDOW`.
    func ageSignIns(of user: TestUser) async throws {
        try await til.db.execute("UPDATE sessions SET auth_time = now() - interval '11 minutes' WHERE user_id = \(user.id)")
    }
}
