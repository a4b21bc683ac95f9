import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The login throttle of issue 17 with two `til-server` processes over one database: the
/// counts, the locks that admit attempts, the account backoff, the known addresses and an
/// operator's unlock all live in PostgreSQL, so a balancer that splits an attacker's guesses
/// between the processes gains nothing. (`TwoProcessTests` has the sequential pair limit.)
final class ThrottleAcrossProcessesTests: ServerProcessTestCase {
    private func start(_ settings: [String: String]) async throws -> (TestClient, TestClient) {
        servers = try await ServerProcess.healthy(2, settings: settings)
        return (servers[0].client, servers[1].client)
    }

    /// 30 wrong logins at once, alternating between the processes and between three spellings
    /// that PostgreSQL folds to `admin`: exactly the limit is checked, whatever the split.
    func testConcurrentAttemptsSplitAcrossTwoProcessesCheckAtMostTheLimit() async throws {
        // Cost 10 for the seeded admin: each check is slow enough for every attempt to be in flight at once.
        try await withTestApp(settings: ["BCRYPT_COST": "10"]) { app in
            let (a, b) = try await start(["LOGIN_MAX_FAILURES": "3", "LOGIN_WINDOW": "60"])
            let spellings = ["admin", "ADMİN", "Admin"]
            let codes = try await statusCodes(of: (0..<30).map { attempt in
                let client = attempt.isMultiple(of: 2) ? a : b
                let spelling = spellings[attempt % spellings.count]
                return { try await client.login(spelling, "wrong-password") }
            })
            XCTAssertEqual(codes.filter { $0 == 401 }.count, 3, "password checks: \(codes.sorted())")
            XCTAssertEqual(codes.filter { $0 == 429 }.count, 27, "\(codes.sorted())")
            let counted = try await app.number("SELECT count(*) AS n FROM login_failures WHERE username = 'admin'")
            XCTAssertEqual(counted, 3, "one counter for every spelling, on both processes")
            assertThrottled(try await b.login("admin", "password"), window: 60)
        }
    }

    /// Guesses from several addresses, some through each process, back the account off on
    /// both; the address where the owner logged in through one process stays open on the other.
    func testTheAccountBackoffAndKnownAddressesHoldAcrossProcesses() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let (a, b) = try await start(
                LockoutByStrangersTests.settings(threshold: 4, base: 30, max: 60).merging(["BCRYPT_COST": "4"]) { $1 })
            func login(_ client: TestClient, _ password: String, from address: String) async throws -> TestResponse {
                try await client.login(user.username, password, headers: LockoutByStrangersTests.from(address))
            }
            let home = "198.51.100.9"
            let first = try await login(a, "password", from: home)
            XCTAssertEqual(first.status.code, 200, "the owner's address becomes known on A: \(first.bodyString)")

            for attempt in 1...4 {
                let failed = try await login(attempt.isMultiple(of: 2) ? a : b, "guess-\(attempt)", from: "203.0.113.\(attempt)")
                XCTAssertEqual(failed.status.code, 401, "guess \(attempt)")
            }
            assertThrottled(try await login(a, "guess", from: "203.0.113.50"), window: 30)
            assertThrottled(try await login(b, "guess", from: "203.0.113.51"), window: 30)
            assertThrottled(try await login(b, "password", from: "192.0.2.44"), window: 30)
            let owner = try await login(b, "password", from: home)
            XCTAssertEqual(owner.status.code, 200, "the address A recorded is known to B: \(owner.bodyString)")
        }
    }

    /// A wrong current password given to one process counts toward the logins the other throttles.
    func testWrongCurrentPasswordsOnOneProcessThrottleTheOther() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let (a, b) = try await start(["LOGIN_MAX_FAILURES": "3", "LOGIN_WINDOW": "60"])
            let session = try await a.session(user.username)
            for attempt in 1...3 {
                let wrong = try await a.send(
                    .put, "/api/users/me/password", json: ["currentPassword": "wrong-\(attempt)", "newPassword": "brand-new-pw"],
                    auth: .bearer(session.value))
                XCTAssertEqual(wrong.status.code, 403, "failure \(attempt) on A: \(wrong.bodyString)")
            }
            assertThrottled(try await b.login(user.username, "password"), window: 60)
            let change = try await b.send(
                .put, "/api/users/me/password", json: ["currentPassword": "password", "newPassword": "brand-new-pw"],
                auth: .bearer(session.value))
            assertThrottled(change, window: 60)
        }
    }

    /// `til-server users unlock`, run while both servers run, lifts the throttle each enforces,
    /// whichever process counted the failures.
    func testUnlockLiftsTheThrottleThatBothRunningServersEnforce() async throws {
        let command = try TILServerRun.testEnvironment()
        try await withTestApp { app in
            let user = try await User.create(username: "runner", on: app)
            let (a, b) = try await start(["LOGIN_MAX_FAILURES": "3", "LOGIN_WINDOW": "60"])
            for client in [a, b, a] {
                let failed = try await client.login(user.username, "wrong-password")
                XCTAssertEqual(failed.status.code, 401)
            }
            assertThrottled(try await a.login(user.username, "password"), window: 60)
            assertThrottled(try await b.login(user.username, "password"), window: 60)

            let unlocked = try await TILServerRun.run(["users", "unlock", "runner"], environment: command)
            XCTAssertEqual(unlocked.status, 0, unlocked.stderr)
            XCTAssertEqual(unlocked.stdout, "runner unlocked; 3 failed logins forgiven.\n")
            for (name, client) in [("A", a), ("B", b)] {
                let login = try await client.login(user.username, "password")
                XCTAssertEqual(login.status.code, 200, "\(name) after the unlock: \(login.bodyString)")
            }
        }
    }
}
