import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// `til-server users set-password` ends every session of the user, so that whoever knew the old
/// password is out. A login that proved the old password while the operator's command ran must
/// not come out of it with a live session: it checked a hash that no longer exists.
///
/// The login is held in bcrypt by a stored hash of cost 14 (about a second here), and the
/// command runs once the login's attempt is counted, which `login_attempt_begin` does before
/// the check starts; the command (cost 4) is done long before the check is.
final class PasswordResetRaceTests: XCTestCase {
    func testALoginInFlightWhileTheOperatorSetsThePasswordGetsNoLiveSession() async throws {
        let environment = try TILServerRun.testEnvironment()
        try await withTestApp { app in
            _ = try await UserRepository(db: app.til.db).create(
                name: "Slow", username: "slow", passwordHash: try Bcrypt.hash("old-password", cost: 14))
            let client = app.client
            async let inFlight = Self.timed { try await client.login("slow", "old-password") }
            let counted = await eventually(within: .seconds(10)) {
                (try? await app.number("SELECT count(*) AS n FROM login_failures WHERE username = 'slow'")) == 1
            }
            XCTAssertTrue(counted, "the login's attempt was never counted")
            let set = try await TILServerRun.run(
                ["users", "set-password", "slow", "--password-stdin"], environment: environment, input: "operator-chosen\n")
            XCTAssertEqual(set.status, 0, set.stderr)
            let commandDone = ContinuousClock.now
            let (login, loginDone) = try await inFlight
            XCTAssertLessThan(commandDone, loginDone, "the login ended before the command: the race was not set up")

            guard login.status.code == 200 else { return }  // the check lost to the change: nothing to end
            let session = try login.decode(LoginAnswer.self)
            let access = try await app.client.meStatus(session.value)
            XCTAssertEqual(access, 401, "a session proven with the password the operator replaced is live (\(set.stdout))")
            let refresh = try await app.client.refreshStatus(session.refreshToken)
            XCTAssertEqual(refresh, 401, "and it refreshes")
        }
    }

    /// `work`'s answer and when it came.
    private static func timed(
        _ work: @Sendable () async throws -> TestResponse
    ) async throws -> (TestResponse, ContinuousClock.Instant) {
        let response = try await work()
        return (response, ContinuousClock.now)
    }
}
