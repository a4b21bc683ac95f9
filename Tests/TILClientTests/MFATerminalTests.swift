import AppTesting
import Foundation
import OneTimePasswords
import QRCode
import TILClient
import WebTesting
import XCTest

/// The second factor as a person at a terminal meets it: the app's code asked in the clear, a
/// recovery code asked unseen, and `til mfa enable` drawing its QR code before it asks.
final class MFATerminalTests: XCTestCase {
    override func setUp() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { throw XCTSkip("python3 drives the pseudo-terminal") }
    }

    static let codePrompt = "Code from your authenticator app (Enter alone to use a recovery code): "

    func testLoginAsksForTheAppsCodeAfterThePasswordAndAgainWhenItIsWrong() async throws {
        try await LiveServer.run { server in
            let holder = try await server.totpUser()
            let til = try CommandLine(server: server.url)
            defer { til.removeConfig() }
            let result = try await PseudoTerminal.run(
                til.binary, ["login", "--username", holder.user.username],
                answers: [("Password: ", holder.password), (Self.codePrompt, holder.wrongCode()), (Self.codePrompt, holder.code())],
                environment: til.environment)
            XCTAssertEqual(result.status, 0, result.output)
            XCTAssertEqual(result.echoAtPrompts, [false, true, true], "the password unseen, the app's code (worthless in 30 s) shown")
            XCTAssertTrue(result.output.contains("The code is wrong or was already used. Try again.\r\n"), result.output)
            XCTAssertTrue(result.output.contains("\(holder.code())\r\nLogged in to"), result.output)
            let me = try await APIClient(server: server.url, store: FileCredentialStore(directory: til.configHome.appendingPathComponent("til"))).me()
            XCTAssertEqual(me.id, holder.user.id)
        }
    }

    func testAnEmptyAnswerAsksForARecoveryCodeWithEchoOff() async throws {
        try await LiveServer.run { server in
            let holder = try await server.totpUser()
            let til = try CommandLine(server: server.url)
            defer { til.removeConfig() }
            let recovery = holder.recoveryCodes[3]
            let result = try await PseudoTerminal.run(
                til.binary, ["login", "--username", holder.user.username],
                answers: [("Password: ", holder.password), (Self.codePrompt, ""), ("Recovery code: ", recovery)],
                environment: til.environment)
            XCTAssertEqual(result.status, 0, result.output)
            XCTAssertEqual(result.echoAtPrompts, [false, true, false])
            XCTAssertEqual(result.echoAfter, true)
            XCTAssertFalse(result.output.contains(recovery), "the recovery code never shows: \(result.output)")
            XCTAssertTrue(result.output.contains("9 left"), result.output)
        }
    }

    func testEnableDrawsTheQRCodeThenAsksForTheCode() async throws {
        try await LiveServer.run { server in
            let (til, _, _) = try await server.loggedInCommandLine()
            defer { til.removeConfig() }

            // The code cannot be known before the secret is drawn: mistyped ones are refused (and
            // asked again, three tries), and the enrolment left pending is finished with `til mfa confirm`.
            let result = try await PseudoTerminal.run(
                til.binary, ["mfa", "enable", "--light-background"], answers: Array(repeating: ("Code from the app: ", "12345"), count: 3), environment: til.environment)
            let output = result.output.replacingOccurrences(of: "\r\n", with: "\n")
            XCTAssertEqual(result.status, 4, output)
            let refusal = "'code' must be the 6 digits the authenticator app shows."
            XCTAssertEqual(output.components(separatedBy: refusal + " Try again.\n").count, 3, "asked again twice: \(output)")
            XCTAssertTrue(output.hasSuffix("til: \(refusal) (400)\n"), output)
            let uri = try XCTUnwrap(MFACommandLineTests.value(after: "URI: ", in: output))
            XCTAssertTrue(output.hasPrefix("Scan this QR code with your authenticator app:\n" + (try QRCode(encoding: uri).terminalText(darkOnLight: true))), output)
            let secret = try XCTUnwrap(URLComponents(string: uri)?.queryItems?.first { $0.name == "secret" }?.value)
            let code = TOTP(secret: try XCTUnwrap(Base32.decode(secret))).code(at: server.clock.now)
            let confirmed = try await til.run("mfa", "confirm", code)
            XCTAssertEqual(confirmed.status, 0, confirmed.stderr)
            let status = try await til.run("mfa", "status", "--json").json(MFAStatus.self)
            XCTAssertTrue(status.totp)
        }
    }
}
