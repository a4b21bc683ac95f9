import AppTesting
import Foundation
import Postgres
import TILClient
import XCTest
@testable import App

/// `til email` and `til status` as a script runs them: the binary as a child process, the link
/// read from the server's outbox as the mail would carry it.
final class EmailCommandLineTests: XCTestCase {
    func testSetVerifyResendAndStatusRoundTrip() async throws {
        try await LiveServer.run { server in
            let (til, user, password) = try await server.loggedInCommandLine()
            defer { til.removeConfig() }
            let none = try await til.run("email")
            XCTAssertEqual(none.stdout, """
                EMAIL  VERIFIED  PENDING
                none   -         -

                """, none.stderr)
            assertFails(try await til.run("email", "resend"), status: 4,
                        stderrPrefix: "til: Your account has no email address to verify: set one first. (409)")

            let set = try await til.run("email", "set", "cli@til.example", "--password-stdin", stdin: password + "\n")
            XCTAssertEqual(set.stdout, "A link is on its way to cli@til.example: your address changes once you follow it (within 24 hours).\n", set.stderr)
            let pending = try await til.run("email", "--json").json(AccountProfile.self)
            XCTAssertEqual(pending, AccountProfile(
                id: user.id, name: user.name, username: user.username, emailVerified: false, pendingEmail: "cli@til.example"))
            let resent = try await til.run("email", "resend")
            XCTAssertEqual(resent.stdout, "The link is on its way again; it works for 24 hours.\n", resent.stderr)

            let link = try await server.lastLink(to: "cli@til.example")
            let outsider = try CommandLine(server: server.url)  // not logged in: the link is the proof
            defer { outsider.removeConfig() }
            let verified = try await outsider.run("email", "verify", link)
            XCTAssertEqual(verified.stdout, "Your email address is verified.\n", verified.stderr)
            assertFails(try await outsider.run("email", "verify", link), status: 4, stderrPrefix: "til: This verification link is unknown, used or expired")

            let status = try await til.run("status")
            XCTAssertTrue(status.stdout.contains("Email:   cli@til.example (verified)\n"), status.stdout)
            let shown = try await til.run("email")
            XCTAssertEqual(shown.stdout, """
                EMAIL            VERIFIED  PENDING
                cli@til.example  yes       -

                """)
        }
    }

    func testRefusalsExitWithTheServersReason() async throws {
        try await LiveServer.run { server in
            let (til, _, password) = try await server.loggedInCommandLine()
            defer { til.removeConfig() }
            assertFails(try await til.run("email", "set", "two@@til.example", "--password-stdin", stdin: password + "\n"), status: 4,
                        stderrPrefix: "til: 'email' must hold exactly one '@'. (400)")
            assertFails(try await til.run("email", "set", "x@til.example", "--password-stdin", stdin: "wrong\n"), status: 4,
                        stderrPrefix: "til: The current password is wrong. (403)")
        }
    }
}

extension LiveServer {
    /// The verification link of the newest mail queued to `recipient`.
    func lastLink(to recipient: String, file: StaticString = #filePath, line: UInt = #line) async throws -> String {
        let text = try await til.db.query("""
            SELECT text_body FROM mail_outbox WHERE recipient = \(recipient) AND kind = 'email-verification' ORDER BY seq DESC LIMIT 1
            """).first?.decode(column: "text_body", as: String.self) ?? ""
        let range = try XCTUnwrap(text.range(of: #"http\S+/verify-email\?token=[A-Za-z0-9_-]+"#, options: .regularExpression), text, file: file, line: line)
        return String(text[range])
    }
}
