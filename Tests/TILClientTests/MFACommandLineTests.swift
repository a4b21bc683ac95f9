import AppTesting
import Foundation
import OneTimePasswords
import QRCode
import TILClient
import XCTest

/// `til mfa` and `til login` with a second factor, run as a script runs them: the binary as a
/// child process, codes computed from the secret it printed at the server's test clock.
final class MFACommandLineTests: XCTestCase {
    func testEnableConfirmStatusDisableRoundTrip() async throws {
        try await LiveServer.run { server in
            let (til, _, password) = try await server.loggedInCommandLine()
            defer { til.removeConfig() }
            let off = try await til.run("mfa", "status", "--json").json(MFAStatus.self)
            XCTAssertEqual(off, MFAStatus(totp: false, recoveryCodesRemaining: 0, passkeys: 0))

            let started = try await til.run("mfa", "enable")
            XCTAssertEqual(started.status, 0, started.stderr)
            let uri = try XCTUnwrap(Self.value(after: "URI: ", in: started.stdout))
            XCTAssertTrue(started.stdout.contains(try QRCode(encoding: uri).terminalText()), "the QR code of the URI: \(started.stdout)")
            XCTAssertEqual(started.stderr, "TOTP is not on yet: confirm with `til mfa confirm CODE`, CODE being what the app shows.\n")
            let secret = try XCTUnwrap(Self.value(after: "secret ", in: started.stdout)?.split(separator: " ").first.map(String.init))
            XCTAssertTrue(uri.contains("secret=\(secret)"), uri)
            let authenticator = TOTP(secret: try XCTUnwrap(Base32.decode(secret)))

            let confirmed = try await til.run("mfa", "confirm", authenticator.code(at: server.clock.now))
            XCTAssertEqual(confirmed.status, 0, confirmed.stderr)
            let codes = confirmed.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") }
            XCTAssertEqual(codes.count, 10, confirmed.stdout)
            XCTAssertTrue(confirmed.stdout.hasPrefix("TOTP is on: `til login` will ask for the app's code.\n"), confirmed.stdout)
            let status = try await til.run("mfa", "status")
            XCTAssertEqual(status.stdout, """
                TOTP  RECOVERY CODES LEFT  PASSKEYS
                on    10                   0

                """)

            server.clock.advance(steps: 1)
            let code = authenticator.code(at: server.clock.now)
            let disabled = try await til.run("mfa", "disable", "--password-stdin", "--code", code, stdin: password + "\n")
            XCTAssertEqual(disabled.stdout, "TOTP is off; the recovery codes are gone.\n", disabled.stderr)
            let offAgain = try await til.run("mfa", "--json").json(MFAStatus.self)
            XCTAssertEqual(offAgain, off, "status is the default subcommand")
        }
    }

    func testEnableAndConfirmInJSONForScripts() async throws {
        try await LiveServer.run { server in
            let (til, _, _) = try await server.loggedInCommandLine()
            defer { til.removeConfig() }

            let enrolment = try await til.run("mfa", "enable", "--json").json(TOTPEnrolment.self)
            XCTAssertTrue(enrolment.qrCodeSVG.hasPrefix("<svg"))
            let code = TOTP(secret: try XCTUnwrap(Base32.decode(enrolment.secret))).code(at: server.clock.now)
            let codes = try await til.run("mfa", "confirm", code, "--json").json(RecoveryCodes.self).recoveryCodes
            XCTAssertEqual(Set(codes).count, 10)
            assertFails(try await til.run("mfa", "enable"), status: 4, stderrPrefix: "til: TOTP is already on; turn it off first to enrol another app. (409)")
        }
    }

    func testLoginWithTheAppsCodeOrARecoveryCode() async throws {
        try await LiveServer.run { server in
            let holder = try await server.totpUser()
            let til = try CommandLine(server: server.url)
            defer { til.removeConfig() }
            let name = holder.user.username, stdin = holder.password + "\n"

            assertFails(try await til.run("login", "--username", name, "--password-stdin", "--code", holder.wrongCode(), stdin: stdin),
                        status: 2, stderrPrefix: "til: The code is wrong or was already used. (401)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: til.credentialsFile.path), "no tokens after a wrong code")
            assertFails(try await til.run("login", "--username", name, "--password-stdin", stdin: stdin),
                        status: 1, stderrPrefix: "til: No terminal to ask on; use --code or --recovery-code-stdin.")

            let withCode = try await til.run("login", "--username", name, "--password-stdin", "--code", holder.code(), stdin: stdin)
            XCTAssertEqual(withCode.status, 0, withCode.stderr)
            XCTAssertTrue(withCode.stdout.hasPrefix("Logged in to \(server.url.absoluteString) as \(name)"), withCode.stdout)
            let me = try await til.run("status", "--json")
            XCTAssertEqual(me.status, 0, me.stderr)

            let piped = try await til.run("login", "--username", name, "--password-stdin", "--recovery-code-stdin", "--json",
                                          stdin: stdin + holder.recoveryCodes[0] + "\n")
            XCTAssertEqual(try piped.json(LoginAnswer.self).recoveryCodesRemaining, 9)
            XCTAssertEqual(piped.stderr, "A recovery code was used up: 9 left (`til mfa recovery-codes` makes a new set).\n")
            let spelled = holder.recoveryCodes[1].lowercased().replacingOccurrences(of: "-", with: " ")
            let typed = try await til.run("login", "--username", name, "--password-stdin", "--recovery-code", spelled, stdin: stdin)
            XCTAssertEqual(typed.status, 0, typed.stderr)
            XCTAssertTrue(typed.stderr.contains("8 left"), typed.stderr)
            assertFails(try await til.run("login", "--username", name, "--password-stdin", "--recovery-code", spelled, stdin: stdin),
                        status: 2, stderrPrefix: "til: The code is wrong or was already used. (401)")
        }
    }

    func testNewRecoveryCodesAndAPasswordChangeTakeTheSecondFactor() async throws {
        try await LiveServer.run { server in
            let holder = try await server.totpUser()
            let til = try CommandLine(server: server.url)
            defer { til.removeConfig() }
            let stdin = holder.password + "\n"
            _ = try await til.run("login", "--username", holder.user.username, "--password-stdin", "--code", holder.code(), stdin: stdin)

            assertFails(try await til.run("mfa", "recovery-codes", "--password-stdin", "--code", holder.nextCode(), stdin: "wrong\n"),
                        status: 4, stderrPrefix: "til: The current password is wrong. (403)")
            let renewed = try await til.run("mfa", "recovery-codes", "--password-stdin", "--code", holder.nextCode(), stdin: stdin)
            XCTAssertTrue(renewed.stdout.hasPrefix("New recovery codes; the old ones no longer work.\n"), renewed.stdout + renewed.stderr)
            let fresh = renewed.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") }.map { $0.trimmingCharacters(in: .whitespaces) }
            XCTAssertEqual(fresh.count, 10)
            XCTAssertTrue(Set(fresh).isDisjoint(with: holder.recoveryCodes))
            let again = try await til.run("mfa", "recovery-codes", "--password-stdin", "--recovery-code-stdin", "--json", stdin: stdin + fresh[0] + "\n")
            XCTAssertEqual(try again.json(RecoveryCodes.self).recoveryCodes.count, 10, again.stderr)

            let changed = try await til.run("password", "--password-stdin", "--code", holder.nextCode(), stdin: stdin + "a new password\n")
            XCTAssertEqual(changed.stdout, "Password changed; your other sessions have ended.\n", changed.stderr)
            assertFails(try await til.run("password", "--password-stdin", stdin: "a new password\nanother one\n"),
                        status: 1, stderrPrefix: "til: No terminal to ask on; use --code or --recovery-code-stdin.")
        }
    }

    func testMistakesExitWithClearMessages() async throws {
        try await LiveServer.run { server in
            let (user, password) = try await server.makeUser()
            let til = try CommandLine(server: server.url)
            defer { til.removeConfig() }
            assertFails(try await til.run("login", "--code", "123456", "--recovery-code", "ABCD"),
                        status: 1, stderrPrefix: "til: Give one of --code, --recovery-code and --recovery-code-stdin.")
            assertFails(try await til.run("login", "--web", "--code", "123456"),
                        status: 1, stderrPrefix: "til: --web and --browser take no code: the server's pages ask for the second factor.")
            assertFails(try await til.run("mfa", "confirm"), status: 1, stderrPrefix: "til: Missing expected argument '<code>'")
            assertFails(try await til.run("mfa", "status"), status: 2, stderrPrefix: "til: not authenticated:")

            let plain = try await til.run("login", "--username", user.username, "--password-stdin", "--code", "123456", stdin: password + "\n")
            XCTAssertEqual(plain.status, 0, plain.stderr)
            XCTAssertEqual(plain.stderr, "til: warning: \(user.username) has no second factor: the code given was not used.\n")
            assertFails(try await til.run("mfa", "recovery-codes", "--password-stdin", stdin: password + "\n"), status: 1,
                        stderrPrefix: "til: TOTP is not on for this account, so it has no recovery codes: `til mfa enable` first.")
            assertFails(try await til.run("mfa", "confirm", "12ab56"), status: 4,
                        stderrPrefix: "til: 'code' must be the 6 digits the authenticator app shows. (400)")
            assertFails(try await til.run("mfa", "confirm", "123456"), status: 4,
                        stderrPrefix: "til: No TOTP enrolment is pending: start one with POST /api/users/me/mfa/totp. (409)")
            let disabled = try await til.run("mfa", "disable", "--password-stdin", stdin: password + "\n")
            XCTAssertEqual(disabled.stdout, "TOTP was not on; an unconfirmed enrolment, if any, is gone.\n", disabled.stderr)
        }
    }

    /// The rest of the first line of `text` that starts with (or contains) `marker`.
    static func value(after marker: String, in text: String) -> String? {
        text.split(separator: "\n").lazy.compactMap { line in line.range(of: marker).map { String(line[$0.upperBound...]) } }.first
    }
}

/// What `til login --json` prints, read as a script would.
private struct LoginAnswer: Decodable {
    var username: String
    var recoveryCodesRemaining: Int?
}
