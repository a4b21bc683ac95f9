import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Operator commands racing each other and the server: two `set-password` at once, an
/// `unlock` while logins arrive, two `migrate --yes` on a database that needs every migration.
final class UsersCommandRaceTests: XCTestCase {
    /// Both commands succeed; one password is left (never a mix), and every session that
    /// existed before is ended exactly once between them.
    func testTwoConcurrentSetPasswordsLeaveOneOfTheTwoAndNoEarlierSession() async throws {
        try await withCommandTestApp { app, environment, _ in
            let sessions = [try await app.client.session("timc"), try await app.client.session("timc")]
            let arguments = ["users", "set-password", "timc", "--password-stdin"]
            async let first = TILServerRun.run(arguments, environment: environment, input: "first-new-pass\n")
            async let second = TILServerRun.run(arguments, environment: environment, input: "second-new-pass\n")
            let runs = try await [first, second]
            for run in runs { XCTAssertEqual(run.status, 0, run.stderr) }
            let ended = runs.compactMap { run in
                run.stdout.split(separator: ";").last?.split(separator: " ").first.flatMap { Int($0) }
            }
            XCTAssertEqual(ended.reduce(0, +), 2, "sessions ended, counted once: \(runs.map(\.stdout))")

            var working: [String] = []
            for password in ["first-new-pass", "second-new-pass", "password"] {
                if try await app.client.login("timc", password).status.code == 200 { working.append(password) }
            }
            XCTAssertEqual(working.count, 1, "passwords that work: \(working)")
            XCTAssertNotEqual(working, ["password"])
            for session in sessions {
                let status = try await app.client.meStatus(session.value)
                XCTAssertEqual(status, 401, "a session from before both commands")
            }
        }
    }

    /// Logins with the right password while an operator unlocks the account: each is refused
    /// (still locked) or succeeds, never an error; once the command is done, the account is open.
    func testLoginsRacingAnUnlockAreAnsweredAndTheUnlockHolds() async throws {
        let environment = try TILServerRun.testEnvironment()
        try await withTestApp(settings: ["LOGIN_MAX_FAILURES": "2", "LOGIN_WINDOW": "60"]) { app in
            _ = try await User.create(username: "timc", on: app)
            for _ in 1...2 { _ = try await app.client.login("timc", "wrong-password") }
            let client = app.client
            async let unlock = TILServerRun.run(["users", "unlock", "timc"], environment: environment)
            let codes = try await statusCodes(of: (0..<12).map { _ in { try await client.login("timc", "password") } })
            let unlocked = try await unlock
            XCTAssertEqual(unlocked.status, 0, unlocked.stderr)
            XCTAssertTrue(codes.allSatisfy { $0 == 200 || $0 == 429 }, "\(codes)")
            let after = try await app.client.login("timc", "password")
            XCTAssertEqual(after.status.code, 200, after.bodyString)
            let left = try await app.number("SELECT count(*) AS n FROM login_failures WHERE username = 'timc'")
            XCTAssertEqual(left, 0, "no failure outlives the unlock and the successes")
        }
    }

    /// The migrator's lock makes two `migrate --yes` at once apply each migration once: both
    /// succeed, and the record names every migration once.
    func testTwoConcurrentMigratesApplyEachMigrationOnce() async throws {
        let environment = try TILServerRun.testEnvironment()
        try await withTestApp { app in
            try await app.withEveryMigrationReverted { migrator, all in
                async let first = TILServerRun.run(["migrate", "--yes"], environment: environment)
                async let second = TILServerRun.run(["migrate", "--yes"], environment: environment)
                let runs = try await [first, second]
                for run in runs { XCTAssertEqual(run.status, 0, run.stderr) }
                let applied = runs.flatMap { run in run.stdout.split(separator: "\n").filter { $0.hasPrefix("applied ") } }
                XCTAssertEqual(applied.count, all.count, "each migration applied by one of the two: \(runs.map(\.stdout))")
                let recorded = try await app.til.db.query("SELECT name FROM _migrations ORDER BY name")
                    .map { try $0.decode(column: "name", as: String.self) }
                XCTAssertEqual(recorded, all.sorted())
                let pending = try await migrator.pendingMigrations()
                XCTAssertEqual(pending, [])
            }
        }
    }
}
