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
