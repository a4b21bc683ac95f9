import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// `til-server users set-password --password-stdin` given bytes that are not UTF-8 (a password
/// typed in Latin-1, say): the command must refuse them, not set a password in which each bad
/// byte became U+FFFD — a password nobody can type, since a login's HTTP Basic credentials
/// that are not UTF-8 are refused, and the operator would never learn why it fails.
final class PasswordStdinEncodingTests: XCTestCase {
    func testAPasswordOnStdinThatIsNotUTF8IsRefused() async throws {
        try await withCommandTestApp { app, environment, _ in
            let latin1 = Array("p".utf8) + [0xE4] + Array("sswort-lang\n".utf8)  // "pässwort-lang" in ISO 8859-1
            let run = try await TILServerRun.run(
                ["users", "set-password", "timc", "--password-stdin"], environment: environment, inputBytes: latin1)
            XCTAssertNotEqual(run.status, 0, "accepted: \(run.stdout)")
            XCTAssertEqual(run.failureLines.count, 1, run.stderr)
            XCTAssertTrue(run.failureLines.first?.hasPrefix("til-server: ") == true && run.stderr.contains("UTF-8"), run.stderr)

            let unchanged = try await app.client.login("timc", "password")
            XCTAssertEqual(unchanged.status.code, 200, "the password was changed anyway")
            let replaced = try await app.client.login("timc", "p\u{FFFD}sswort-lang")
            XCTAssertEqual(replaced.status.code, 401, "the bad byte was set as U+FFFD")
        }
    }
}
