import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// `til-server users` finds an account exactly as a login does: any case, either Unicode
/// normal form, and PostgreSQL's folding of `İ`, reach the one account; a look-alike without
/// the diaeresis is another. `unlock` forgives the counter the login fills whatever spelling
/// the guesses used, and `list` counts it. (The database folds `İ` to `i`: see
/// `ThrottleCaseFoldingTests`.)
final class UsersCommandSpellingTests: XCTestCase {
    func testSetPasswordReachesTheAccountTheLoginFindsInEverySpelling() async throws {
        try await withCommandTestApp(username: "zoë-ali") { app, environment, user in
            let lookalike = try await User.create(username: "zoe-ali", on: app)
            let before = try await app.client.session("zoë-ali")

            let spelling = "ZOE\u{308}-ALİ"  // decomposed, upper case, dotted İ
            let set = try await TILServerRun.run(
                ["users", "set-password", spelling, "--password-stdin"], environment: environment, input: "new-secret-pass\n")
            XCTAssertEqual(set.status, 0, set.stderr)
            XCTAssertEqual(set.stdout, "Password of \(spelling) set; 1 session ended.\n")
            XCTAssertTrue(set.stderr.contains(#"user-id=""# + user.id.uuidString + #"""#), set.stderr)

            let ended = try await app.client.meStatus(before.value)
            XCTAssertEqual(ended, 401, "the account's session ended")
            for login in ["zoë-ali", "Zoe\u{308}-Ali", "ZOË-ALI"] {
                let session = try await app.client.session(login, "new-secret-pass")
                XCTAssertEqual(session.user.id, user.id, login)
            }
            let untouched = try await app.client.session("zoe-ali", "password")
            XCTAssertEqual(untouched.user.id, lookalike.id, "the look-alike account kept its password")
        }
    }

    func testUnlockForgivesTheCounterEverySpellingFilledAndListCountsIt() async throws {
        let environment = try TILServerRun.testEnvironment()
        try await withTestApp(settings: ["LOGIN_MAX_FAILURES": "3", "LOGIN_WINDOW": "60"]) { app in
            _ = try await User.create(username: "zoë-ali", on: app)
            _ = try await User.create(username: "zoe-ali", on: app)
            let lookalikeFailure = try await app.client.login("zoe-ali", "wrong-password")
            XCTAssertEqual(lookalikeFailure.status.code, 401)
            for spelling in ["ZOË-ALI", "zoe\u{308}-alİ", "Zoë-Ali"] {
                let failed = try await app.client.login(spelling, "wrong-password")
                XCTAssertEqual(failed.status.code, 401, spelling)
            }
            assertThrottled(try await app.client.login("zoë-ali", "password"), window: 60)

            let listed = try await TILServerRun.run(["users", "list"], environment: environment)
            XCTAssertEqual(listed.status, 0, listed.stderr)
            XCTAssertEqual(Self.failedLogins(in: listed.stdout), ["admin": "0", "zoë-ali": "3", "zoe-ali": "1"], listed.stdout)

            let unlocked = try await TILServerRun.run(["users", "unlock", "ZOE\u{308}-ALİ"], environment: environment)
            XCTAssertEqual(unlocked.status, 0, unlocked.stderr)
            XCTAssertTrue(unlocked.stdout.hasSuffix("unlocked; 3 failed logins forgiven.\n"), unlocked.stdout)
            let login = try await app.client.login("Zoe\u{308}-Ali", "password")
            XCTAssertEqual(login.status.code, 200, login.bodyString)

            let after = try await TILServerRun.run(["users", "list"], environment: environment)
            XCTAssertEqual(Self.failedLogins(in: after.stdout), ["admin": "0", "zoë-ali": "0", "zoe-ali": "1"], after.stdout)
        }
    }

    /// USERNAME → FAILED-LOGINS from `users list`: the column before the id, whatever words the name has.
    private static func failedLogins(in table: String) -> [String: String] {
        var counts: [String: String] = [:]
        for line in table.split(separator: "\n").dropFirst() {
            let cells = line.split(separator: " ").map(String.init)
            guard cells.count >= 5 else { continue }
            counts[cells[0]] = cells[cells.count - 2]
        }
        return counts
    }
}
