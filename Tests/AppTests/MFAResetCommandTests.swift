import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// `til-server users mfa-reset USERNAME`: the operator's way back in for a user who lost both
/// the authenticator and the recovery codes. Removes TOTP, the codes and waiting logins, ends
/// every session, and is audited.
final class MFAResetCommandTests: XCTestCase {
    func testResetRemovesTheSecondFactorsAndEndsEverySession() async throws {
        let environment = try TILServerRun.testEnvironment()
        try await withTestApp { app in
            let enrolled = try await app.enrolledUser(username: "Zoë", clock: TestClock(Date()))
            let pending = try await app.mfaToken(enrolled.user.username)
            let observed1 = try await app.client.meStatus(enrolled.session.value)
            XCTAssertEqual(observed1, 200)

            let reset = try await TILServerRun.run(["users", "mfa-reset", "ZOË"], environment: environment)
            XCTAssertEqual(reset.status, 0, reset.stderr)
            XCTAssertEqual(reset.stdout, "ZOË: second factors removed; 1 session ended.\n")
            XCTAssertTrue(reset.stderr.contains("audit mfa.reset"), reset.stderr)

            let observed2 = try await app.client.meStatus(enrolled.session.value)
            XCTAssertEqual(observed2, 401, "every session ended")
            for table in ["totp_credentials", "recovery_codes", "mfa_challenges"] {
                let left = try await app.number("SELECT count(*)::int AS n FROM \(unescaped: table) WHERE user_id = \(enrolled.user.id)")
                XCTAssertEqual(left, 0, table)
            }
            let late = try await app.completeLogin(["mfaToken": pending, "code": enrolled.code(at: TestClock(Date()))])
            XCTAssertEqual(late.status.code, 401, "a login waiting for its second step is gone")
            let login = try await app.client.login("zoë")
            XCTAssertEqual(login.status.code, 200, "a password is enough again: \(login.bodyString)")

            let again = try await TILServerRun.run(["users", "mfa-reset", "zoë"], environment: environment)
            XCTAssertEqual(again.stdout, "zoë: had no second factor; 1 session ended.\n")
            let unknown = try await TILServerRun.run(["users", "mfa-reset", "nobody"], environment: environment)
            unknown.assertFailure(1, mentioning: ["no user named 'nobody'"])
        }
    }
}

/// `mfa-reset` while a login is at its second step: whichever lands first, the waiting
/// login's token never yields a session that outlives the reset.
final class MFAResetRaceTests: XCTestCase {
    func testAResetRacingASecondStepLeavesNoSession() async throws {
        let environment = try TILServerRun.testEnvironment()
        try await withMFAApp { app, clock in
            for trial in 1...3 {
                let enrolled = try await app.enrolledUser(username: "reset-race-\(trial)", clock: clock)
                let pending = try await app.mfaToken(enrolled.user.username)
                let fields = ["mfaToken": pending, "code": enrolled.code(at: clock)]
                async let reset = TILServerRun.run(["users", "mfa-reset", enrolled.user.username], environment: environment)
                let client = app.client
                async let secondStep = client.send(.post, "/api/users/login/mfa", json: fields)
                let (ran, step) = try await (reset, secondStep)
                XCTAssertEqual(ran.status, 0, ran.stderr)
                XCTAssertTrue([200, 401].contains(step.status.code), "trial \(trial): \(step.bodyString)")
                if step.status.code == 200 {
                    let token = try step.decode(LoginAnswer.self).value
                    let observed = try await app.client.meStatus(token)
                    XCTAssertEqual(observed, 401, "trial \(trial): the reset ended the session the second step started")
                }
                let sessions = try await app.number("SELECT count(*)::int AS n FROM sessions WHERE user_id = \(enrolled.user.id) AND revoked_at IS NULL")
                XCTAssertEqual(sessions, 0, "trial \(trial): no session survives the reset")
                let again = try await app.completeLogin(fields)
                XCTAssertEqual(again.status.code, 401, "trial \(trial): the waiting login is gone: \(again.bodyString)")
            }
        }
    }
}

extension MFAResetRaceTests {
    /// The interleaving forced: the second step has spent its mfaToken and waits to store its
    /// session (on a lock the test holds on the user row, which the insert's foreign-key check
    /// needs) while the reset runs to its end. The factor it proved is gone by then: refused.
    func testAResetWhileTheSecondStepStoresItsSessionLeavesNoSession() async throws {
        let environment = try TILServerRun.testEnvironment()
        let clock = TestClock()
        try await TestApp.run(.live, clock: clock.clock) { app in
            let enrolled = try await app.enrolledUser(username: "reset-between", clock: clock)
            let pending = try await app.mfaToken(enrolled.user.username)
            let (db, client) = (app.til.db, app.client)
            let userLock = HeldTransaction(on: db, "SELECT 1 FROM users WHERE id = \(enrolled.user.id) FOR UPDATE")
            try await userLock.started()
            let fields = ["mfaToken": pending, "code": enrolled.code(at: clock)]
            let secondStep = Task { try await client.send(.post, "/api/users/login/mfa", json: fields) }
            try await db.waitUntil(.waitingOnALock("INSERT INTO sessions"))
            let reset = try await TILServerRun.run(["users", "mfa-reset", enrolled.user.username], environment: environment)
            XCTAssertEqual(reset.status, 0, reset.stderr)
            try await userLock.finish()
            let step = try await secondStep.value
            XCTAssertEqual(step.status.code, 401, "the factor it proved is gone: no session after the reset: \(step.bodyString)")
            let live = try await app.number("SELECT count(*)::int AS n FROM sessions WHERE user_id = \(enrolled.user.id) AND revoked_at IS NULL")
            XCTAssertEqual(live, 0, "no session survives the reset")
            let again = try await app.completeLogin(fields)
            XCTAssertEqual(again.status.code, 401, again.bodyString)
        }
    }

    /// The same for a passkey login on its own (amr `hwk user`, no second step): the reset
    /// removes the passkey while the login stores its session, and no session survives.
    func testAResetWhileAPasskeyLoginStoresItsSessionLeavesNoSession() async throws {
        let environment = try TILServerRun.testEnvironment()
        try await withTestApp { app in
            var (_, authenticator) = try await PasskeyCeremony.holder("reset-passkey", on: app)
            let rows = try await app.til.db.query("SELECT id FROM users WHERE username = 'reset-passkey'")
            let userID = try XCTUnwrap(try rows.first?.decode(column: "id", as: UUID.self))
            let ceremony = PasskeyCeremony(client: app.client)
            let assertion = try await ceremony.assertion(&authenticator)
            let db = app.til.db
            let userLock = HeldTransaction(on: db, "SELECT 1 FROM users WHERE id = \(userID) FOR UPDATE")
            try await userLock.started()
            let login = Task { try await ceremony.sendLogin(assertion) }
            try await db.waitUntil(.waitingOnALock("INSERT INTO sessions"))
            let reset = try await TILServerRun.run(["users", "mfa-reset", "reset-passkey"], environment: environment)
            XCTAssertEqual(reset.status, 0, reset.stderr)
            try await userLock.finish()
            let answer = try await login.value
            XCTAssertEqual(answer.status.code, 401, "the passkey it proved is gone: \(answer.bodyString)")
            let live = try await app.number("SELECT count(*)::int AS n FROM sessions WHERE user_id = \(userID) AND revoked_at IS NULL")
            XCTAssertEqual(live, 0, "no session survives the reset")
        }
    }
}
