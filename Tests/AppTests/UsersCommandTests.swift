import AppTesting
import Foundation
import Web
import WebTesting
import XCTest
@testable import App

/// `til-server users` run as real processes against the test database, while the app runs in
/// process over the same database, and the start-up check of the stored admin password.
final class UsersCommandTests: XCTestCase {
    func testSetPasswordAppliesTheRulesEndsEverySessionAndIsAudited() async throws {
        try await withCommandTestApp { app, environment, user in
            let tokens = [try await app.client.session("timc"), try await app.client.session("TimC")]

            let short = try await TILServerRun.run(["users", "set-password", "timc", "--password-stdin"], environment: environment, input: "short\n")
            short.assertFailure(1, mentioning: ["'new password' must be at least 8 bytes."])
            let unknown = try await TILServerRun.run(["users", "set-password", "nobody", "--password-stdin"], environment: environment, input: "long-enough\n")
            unknown.assertFailure(1, mentioning: ["no user named 'nobody'"])
            let noTerminal = try await TILServerRun.run(["users", "set-password", "timc"], environment: environment)
            noTerminal.assertFailure(64, mentioning: ["--password-stdin"])
            try await assertLogin("timc", "password", answers: 200, on: app)  // unchanged; a third session

            let set = try await TILServerRun.run(["users", "set-password", "timc", "--password-stdin"], environment: environment, input: "new-secret-pass\n")
            XCTAssertEqual(set.status, 0, set.stderr)
            XCTAssertEqual(set.stdout, "Password of timc set; 3 sessions ended.\n")
            XCTAssertTrue(set.stderr.contains("audit password.set"), set.stderr)
            XCTAssertTrue(set.stderr.contains(#"user-id=""# + user.id.uuidString + #"""#), set.stderr)
            XCTAssertFalse(set.stderr.contains("new-secret-pass"), "the password was logged")
            for token in tokens {
                let me = try await app.client.send(.get, "/api/users/me", auth: .bearer(token.value))
                XCTAssertEqual(me.status.code, 401, "a session outlived the new password")
            }
            try await assertLogin("timc", "password", answers: 401, on: app)
            try await assertLogin("timc", "new-secret-pass", answers: 200, on: app)
        }
    }

    /// On a terminal the password is asked twice with echo off, and never shown.
    func testSetPasswordAsksTwiceWithoutEchoOnATerminal() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { throw XCTSkip("python3 drives the pseudo-terminal") }
        try await withCommandTestApp { app, environment, _ in
            let answers = [(prompt: "New password for timc: ", text: "typed-at-the-terminal"), (prompt: "Repeat it: ", text: "typed-at-the-terminal")]
            let result = try await PseudoTerminal.run(
                try ServerProcess.binaryURL(), ["users", "set-password", "timc"], answers: answers, environment: environment)
            XCTAssertEqual(result.status, 0, result.output)
            XCTAssertEqual(result.echoAtPrompts, [false, false], "echo is off while the password is typed")
            XCTAssertEqual(result.echoAfter, true, "and on again afterwards")
            XCTAssertFalse(result.output.contains("typed-at-the-terminal"), result.output)
            XCTAssertTrue(result.output.contains("Password of timc set; 0 sessions ended."), result.output)
            try await assertLogin("timc", "typed-at-the-terminal", answers: 200, on: app)

            let differing = [(prompt: "New password for timc: ", text: "first-attempt"), (prompt: "Repeat it: ", text: "second-attempt")]
            let refused = try await PseudoTerminal.run(
                try ServerProcess.binaryURL(), ["users", "set-password", "timc"], answers: differing, environment: environment)
            XCTAssertEqual(refused.status, 64, refused.output)
            XCTAssertTrue(refused.output.contains("til-server: The two passwords differ."), refused.output)
            try await assertLogin("timc", "typed-at-the-terminal", answers: 200, on: app)
        }
    }

    func testUnlockLiftsTheLoginThrottleForThatUser() async throws {
        let environment = try TILServerRun.testEnvironment()
        try await withTestApp(settings: ["LOGIN_MAX_FAILURES": "2"]) { app in
            _ = try await User.create(username: "timc", on: app)
            for _ in 1...2 { try await assertLogin("timc", "wrong-password", answers: 401, on: app) }
            try await assertLogin("timc", "password", answers: 429, on: app)

            let unknown = try await TILServerRun.run(["users", "unlock", "nobody"], environment: environment)
            unknown.assertFailure(1, mentioning: ["no user named 'nobody'"])
            let unlocked = try await TILServerRun.run(["users", "unlock", "TIMC"], environment: environment)
            XCTAssertEqual(unlocked.status, 0, unlocked.stderr)
            XCTAssertEqual(unlocked.stdout, "TIMC unlocked; 2 failed logins forgiven.\n")
            XCTAssertTrue(unlocked.stderr.contains("audit login.unlocked"), unlocked.stderr)
            try await assertLogin("timc", "password", answers: 200, on: app)
        }
    }

    func testListShowsEveryAccountWithSessionsAndRecentFailures() async throws {
        let environment = try TILServerRun.testEnvironment()
        try await withTestApp { app in
            let user = try await User.create(name: "Tim Condon", username: "timc", on: app)
            _ = try await app.client.session("timc")
            try await assertLogin("admin", "wrong-password", answers: 401, on: app)

            let list = try await TILServerRun.run(["users", "list"], environment: environment)
            XCTAssertEqual(list.status, 0, list.stderr)
            let rows = list.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
            XCTAssertEqual(rows.first, ["USERNAME", "NAME", "SESSIONS", "FAILED-LOGINS", "ID"])
            XCTAssertEqual(rows.dropFirst().first?.prefix(4), ["admin", "Admin", "0", "1"])
            XCTAssertEqual(rows.dropFirst(2).first, ["timc", "Tim", "Condon", "1", "0", user.id.uuidString.lowercased()])
            XCTAssertEqual(rows.count, 3)
        }
    }

    /// A newcomer set `ADMIN_PASSWORD` in production over a database seeded with `password`:
    /// the server refuses to start and names the command; once the operator has used it, the
    /// server starts and says in one line that `ADMIN_PASSWORD` is ignored.
    func testProductionRefusesTheBuiltInAdminPasswordUntilTheOperatorChangesIt() async throws {
        let environment = try ServerProcess.testEnvironment(["ENVIRONMENT": "production", "ADMIN_PASSWORD": "correct horse battery"])
        try await withTestApp { app in  // the admin's password is the built-in one here
            let refused = try ServerProcess(environment: environment)
            let status = await refused.waitForExit()
            if status == nil { await refused.stop() }
            XCTAssertEqual(status, 78, refused.output)
            XCTAssertTrue(refused.output.contains("til-server: the admin account still has the built-in password"), refused.output)
            XCTAssertTrue(refused.output.contains("`til-server users set-password admin`"), refused.output)

            try await app.til.administration.setPassword("operator's own", of: "admin")
            let started = try ServerProcess(environment: environment)
            do {
                try await started.waitUntilHealthy()
                let warnings = started.output.split(separator: "\n").filter { $0.contains("ADMIN_PASSWORD is ignored") }
                XCTAssertEqual(warnings.count, 1, started.output)
                let login = try await started.client.send(.post, "/api/users/login", auth: .basic("admin", "operator's own"))
                XCTAssertEqual(login.status.code, 200)
            } catch {
                print("til-server output:\n\(started.output)")
                await started.stop()
                throw error
            }
            await started.stop()
        }
    }

    private func assertLogin(
        _ username: String, _ password: String, answers status: Int, on app: TestApp, file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        let response = try await app.client.login(username, password)
        XCTAssertEqual(response.status.code, status, "\(username):\(password) → \(response.bodyString)", file: file, line: line)
    }
}
