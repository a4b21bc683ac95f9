import AppTesting
import Foundation
import TILClient
import WebTesting
import XCTest
@testable import App

/// `til` meeting the step-up challenge: a script is told to run `til reauth --password-stdin`
/// first (exit 2), which it can; a person at a terminal is asked for the password (and with
/// TOTP on the app's code) and the command goes on.
final class StepUpCommandLineTests: XCTestCase {
    func testAScriptRunsTilReauthFirst() async throws {
        try await LiveServer.run { server in
            let (til, user, password) = try await server.loggedInCommandLine()
            defer { til.removeConfig() }
            try await server.ageSignIns(of: user)
            assertFails(
                try await til.run("mfa", "enable", "--json"), status: 2,
                stderrPrefix: "til: this change needs a recent sign-in: your password again (signed in more than 10 minutes ago). Run `til reauth`")
            assertFails(try await til.run("reauth", "--password-stdin", stdin: "wrong-password\n"), status: 4,
                        stderrPrefix: "til: The current password is wrong. (403)")
            let reauth = try await til.run("reauth", "--password-stdin", stdin: password + "\n")
            XCTAssertEqual(reauth.status, 0, reauth.stderr)
            XCTAssertEqual(reauth.stdout, "Signed in again: sensitive changes are allowed for the next few minutes.\n")
            let enrolment = try await til.run("mfa", "enable", "--json")
            XCTAssertEqual(enrolment.status, 0, enrolment.stderr)
            XCTAssertFalse(try enrolment.json(TOTPEnrolment.self).secret.isEmpty)
        }
    }

    func testWithTOTPOnTilReauthTakesACode() async throws {
        try await LiveServer.run { server in
            let holder = try await server.totpUser()
            let til = try CommandLine(server: server.url)
            defer { til.removeConfig() }
            let stdin = holder.password + "\n"
            let login = try await til.run("login", "--username", holder.user.username, "--password-stdin", "--code", holder.nextCode(), stdin: stdin)
            XCTAssertEqual(login.status, 0, login.stderr)
            try await server.ageSignIns(of: holder.user)
            assertFails(try await til.run("reauth", "--password-stdin", stdin: stdin), status: 1,
                        stderrPrefix: "til: No terminal to ask on; use --code or --recovery-code-stdin.")
            let reauth = try await til.run("reauth", "--password-stdin", "--code", holder.nextCode(), stdin: stdin)
            XCTAssertEqual(reauth.status, 0, reauth.stderr)
            assertFails(try await til.run("passkeys", "remove", UUID().uuidString), status: 3, stderrPrefix: "til: No passkey with that id. (404)")
        }
    }

    func testAtATerminalThePasswordAndTheCodeAreAskedAndTheCommandGoesOn() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { throw XCTSkip("python3 drives the pseudo-terminal") }
        try await LiveServer.run { server in
            let holder = try await server.totpUser()
            let til = try CommandLine(server: server.url)
            defer { til.removeConfig() }
            let login = try await til.run(
                "login", "--username", holder.user.username, "--password-stdin", "--code", holder.nextCode(), stdin: holder.password + "\n")
            XCTAssertEqual(login.status, 0, login.stderr)
            try await server.ageSignIns(of: holder.user)
            let code = holder.nextCode()
            let result = try await PseudoTerminal.run(
                til.binary, ["passkeys", "remove", UUID().uuidString],
                answers: [("Password: ", holder.password), (MFATerminalTests.codePrompt, code)], environment: til.environment)
            let output = result.output.replacingOccurrences(of: "\r\n", with: "\n")
            XCTAssertEqual(result.status, 3, output)
            XCTAssertTrue(output.contains("This change needs a recent sign-in: your password again (signed in more than 10 minutes ago).\nPassword: "), output)
            XCTAssertEqual(result.echoAtPrompts, [false, true], "the password unseen, the app's code shown")
            XCTAssertFalse(output.contains("Password: \(holder.password)"), "the password never shows: \(output)")
            XCTAssertTrue(output.hasSuffix("til: No passkey with that id. (404)\n"), "re-authenticated, the removal went on: \(output)")
        }
    }
}
