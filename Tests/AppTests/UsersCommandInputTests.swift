import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// What `til-server users` and the other operator commands make of bad input: a command line
/// that is not one, usernames that name no account (empty, over-long, padded, invisible
/// characters, a line break), and `--password-stdin` with what is not one password line. Every
/// refusal is one line `til-server: …` and changes nothing. (A NUL cannot reach a command
/// line: the kernel ends every argument at the first one; on stdin it is tested below.)
final class UsersCommandInputTests: XCTestCase {
    func testPasswordsOnStdinThatBreakTheRulesAreRefusedAndChangeNothing() async throws {
        try await withCommandTestApp { app, environment, _ in
            let cases: [(input: String, status: Int32, fragment: String)] = [
                ("", 64, "Expected the password on stdin."),
                ("\n", 1, "'new password' must be at least 8 bytes."),
                ("\r\n", 1, "'new password' must be at least 8 bytes."),
                (String(repeating: "p", count: 73) + "\n", 1, "'new password' must be at most 72 bytes."),
                ("long-enough\u{0}password\n", 1, "'new password' must not contain NUL."),
            ]
            for (input, status, fragment) in cases {
                let run = try await TILServerRun.run(["users", "set-password", "timc", "--password-stdin"], environment: environment, input: input)
                run.assertFailure(status, mentioning: [fragment])
                XCTAssertEqual(run.stdout, "", "\(input.debugDescription)")
            }
            let unchanged = try await app.client.login("timc", "password")
            XCTAssertEqual(unchanged.status.code, 200, "a refused command changed the password")
        }
    }

    /// The first line is the password, whole: a second line is not part of it, a CRLF ending
    /// is an ending, and white space around it is part of it.
    func testThePasswordIsExactlyTheFirstLineOfStdin() async throws {
        try await withCommandTestApp { app, environment, _ in
            let cases: [(input: String, password: String, notThePassword: String)] = [
                ("first-line-pass\nsecond line\n", "first-line-pass", "first-line-pass\nsecond line"),
                ("windows-ending\r\n", "windows-ending", "windows-ending\r"),
                ("  padded password  \n", "  padded password  ", "padded password"),
                ("no-final-newline", "no-final-newline", "no-final-newline\n"),
            ]
            for (input, password, notThePassword) in cases {
                let run = try await TILServerRun.run(["users", "set-password", "timc", "--password-stdin"], environment: environment, input: input)
                XCTAssertEqual(run.status, 0, "\(input.debugDescription): \(run.stderr)")
                let login = try await app.client.login("timc", password)
                XCTAssertEqual(login.status.code, 200, "\(input.debugDescription) set another password than \(password.debugDescription)")
                let other = try await app.client.login("timc", notThePassword)
                XCTAssertEqual(other.status.code, 401, "\(input.debugDescription) also accepts \(notThePassword.debugDescription)")
            }
        }
    }

    func testUsernamesThatNameNoAccountAreOneLineAndChangeNothing() async throws {
        try await withCommandTestApp { app, environment, _ in
            for _ in 1...2 { _ = try await app.client.login("timc", "wrong-password") }
            let names = ["", String(repeating: "t", count: 300), " timc", "timc ", "timc\u{200B}", "\u{202E}cmit", "tim\nc", "timc\u{7}"]
            for name in names {
                let set = try await TILServerRun.run(
                    ["users", "set-password", name, "--password-stdin"], environment: environment, input: "new-secret-pass\n")
                set.assertFailure(1, mentioning: ["no user named '"])
                let unlock = try await TILServerRun.run(["users", "unlock", name], environment: environment)
                unlock.assertFailure(1, mentioning: ["no user named '"])
            }
            let failures = try await app.number("SELECT count(*) AS n FROM login_failures WHERE username = 'timc'")
            XCTAssertEqual(failures, 2, "no unlock forgave timc's failures")
            let password = try await app.client.login("timc", "password")
            XCTAssertEqual(password.status.code, 200, "no command changed the password")
        }
    }

    func testCommandLinesThatAreNotOneAreUsageErrors() async throws {
        let environment = try TILServerRun.testEnvironment()
        let wrong: [[String]] = [
            ["users", "set-password"], ["users", "unlock"], ["users", "unlock", "timc", "extra"], ["users", "list", "--bogus"],
            ["users", "frobnicate"], ["users", "set-password", "timc", "--password-stdin", "--password-stdin=yes"],
            ["migrate", "--bogus"], ["migrate", "extra"], ["routes", "extra"],
        ]
        for arguments in wrong {
            let run = try await TILServerRun.run(arguments, environment: environment, input: "new-secret-pass\n")
            run.assertFailure(64, mentioning: ["(see `til-server --help`)"])
            XCTAssertEqual(run.stdout, "", "\(arguments)")
        }
    }
}
