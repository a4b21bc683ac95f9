import Foundation
import TILClient
import Web
import XCTest

/// What `til` shows a person: nothing a server says can drive the terminal, and a login that
/// would send a password in clear text off this machine is called out.
final class TerminalSafetyTests: XCTestCase {
    /// Issue 17, low: "a C1 control in a User-Agent reaches the terminal through `til sessions`."
    func testNonPrintingCharactersInTableCellsAreEscaped() async throws {
        let agent = "evil\u{9B}2J\u{1B}]0;owned\u{07}\u{202E}exe.txt\u{200B}\u{2028}end"
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let session = SessionInfo(
            id: UUID(), createdAt: now, lastUsedAt: now, expiresAt: now, refreshExpiresAt: now, userAgent: agent,
            scopes: [.account], current: true)
        try await FakeServer.run(answer: { _ in FakeServer.json([session]) }) { server in
            let til = try CommandLine(server: server.url)
            defer { til.removeConfig() }
            let listed = try await til.run("sessions", environment: ["TIL_TOKEN": "any"])
            XCTAssertEqual(listed.status, 0, listed.stderr)
            let lines = listed.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            XCTAssertEqual(lines.count, 3, "a header, one row, the final newline: \(listed.stdout)")
            let raw = listed.stdout.unicodeScalars.filter { $0 != "\n" && Self.isNonPrinting($0) }
            XCTAssertEqual(raw.map { String($0.value, radix: 16) }, [], "no control or format character reaches the terminal")
            XCTAssertTrue(
                listed.stdout.hasSuffix(#"evil\u{9B}2J\u{1B}]0;owned\u{7}\u{202E}exe.txt\u{200B}\u{2028}end"# + "\n"), listed.stdout)

            let json = try await til.run("sessions", "--json", environment: ["TIL_TOKEN": "any"])
            XCTAssertEqual(try JSONDecoder().decode([SessionInfo].self, from: Data(json.stdout.utf8)).first?.userAgent, agent,
                           "JSON keeps the value as it is: a script decodes it")
        }
    }

    /// Issue 17, medium (client half): `til login` warns about `http://` servers off this machine.
    func testLoginWarnsWhenAPasswordWouldCrossTheNetworkInClearText() async throws {
        let offMachine = try CommandLine(server: URL(string: "http://example.test")!)
        defer { offMachine.removeConfig() }
        let warned = try await offMachine.run("login", "--username", "bob", "--password-stdin", stdin: "bobpassword\n")
        let lines = warned.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "til: warning: http://example.test is not encrypted: the password and tokens cross the network in clear text (use https://).")
        XCTAssertEqual(lines.count, 2, "the warning, then the login's own failure: \(warned.stderr)")

        try await LiveServer.run { server in
            let (user, password) = try await server.makeUser()
            let loopback = try CommandLine(server: server.url)
            defer { loopback.removeConfig() }
            let quiet = try await loopback.run("login", "--username", user.username, "--password-stdin", stdin: password + "\n")
            XCTAssertEqual(quiet.status, 0, quiet.stderr)
            XCTAssertEqual(quiet.stderr, "", "no warning for \(server.url.absoluteString)")
        }
    }

    private static func isNonPrinting(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}
