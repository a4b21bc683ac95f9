import App
import AppTesting
import Foundation
import Postgres
import TILClient
import XCTest

/// A forgotten password through TILClient and `til password reset` / `reset-confirm`, as a
/// person would: the link's token read from the mail the request queued, the new password
/// typed (here on stdin), and for an account with TOTP on the code asked for after.
final class PasswordResetClientTests: XCTestCase {
    func testTheClientResetsAPasswordAndStopsForTheSecondFactor() async throws {
        try await LiveServer.run { server in
            let (user, _) = try await server.makeUser()
            let email = try await server.verifyEmail(of: user)
            let client = server.client()
            let message = try await client.passwordReset.request(login: user.username)
            let unknown = try await client.passwordReset.request(login: "nobody-\(UUID())")
            XCTAssertEqual(message, unknown, "the same answer for a login that names nothing")
            try await client.passwordReset.confirm(token: try await server.resetToken(mailedTo: email), newPassword: "client-new-secret")
            try await client.login(username: user.username, password: "client-new-secret")

            let holder = try await server.totpUser()
            let holderEmail = try await server.verifyEmail(of: holder.user)
            try await client.passwordReset.request(login: holderEmail.uppercased())
            let token = try await server.resetToken(mailedTo: holderEmail)
            let challenge = try await secondFactorChallenge { try await client.passwordReset.confirm(token: token, newPassword: "totp-new-secret") }
            XCTAssertEqual(challenge.methods, ["totp", "recovery_code"])
            do {
                try await client.passwordReset.confirm(token: token, challenge: challenge, with: .totp(holder.wrongCode()))
                XCTFail("a wrong code reset the password")
            } catch TILError.server(let status, let reason, _) {
                XCTAssertEqual(status, 401)
                XCTAssertEqual(reason, "The code is wrong or was already used.")
            }
            try await client.passwordReset.confirm(token: token, challenge: challenge, with: .recoveryCode(holder.recoveryCodes[0]))
            let next = try await secondFactorChallenge { try await client.login(username: holder.user.username, password: "totp-new-secret") }
            try await client.completeSecondFactor(next, code: holder.nextCode())
        }
    }

    func testTheCommandLineResetsWithTheTokenOnStdin() async throws {
        try await LiveServer.run { server in
            let (user, _) = try await server.makeUser()
            let email = try await server.verifyEmail(of: user)
            let til = try CommandLine(server: server.url)
            defer { til.removeConfig() }
            let requested = try await til.run("password", "reset", user.username)
            XCTAssertEqual(requested.status, 0, requested.stderr)
            XCTAssertTrue(requested.stdout.hasPrefix("If the account has a verified email address, a link"), requested.stdout)
            let token = try await server.resetToken(mailedTo: email)
            let wrong = try await til.run("password", "reset-confirm", "--token-stdin", "--new-password-stdin", stdin: "not-\(token)\ncli-new-secret\n")
            assertFails(wrong, status: 4, stderrPrefix: "til: The reset token is no longer valid")
            let done = try await til.run("password", "reset-confirm", "--token-stdin", "--new-password-stdin", stdin: "\(token)\ncli-new-secret\n")
            XCTAssertEqual(done.status, 0, done.stderr)
            XCTAssertEqual(done.stdout, "Password reset; every session of the account has ended. Log in with the new one: til login.\n")
            let login = try await til.run("login", "--username", user.username, "--password-stdin", stdin: "cli-new-secret\n")
            XCTAssertEqual(login.status, 0, login.stderr)

            let holder = try await server.totpUser()
            let holderEmail = try await server.verifyEmail(of: holder.user)
            _ = try await til.run("password", "reset", holderEmail)
            let holderToken = try await server.resetToken(mailedTo: holderEmail)
            let withCode = try await til.run(
                "password", "reset-confirm", "--token-stdin", "--new-password-stdin", "--code", holder.code(), stdin: "\(holderToken)\ncli-totp-secret\n")
            XCTAssertEqual(withCode.status, 0, withCode.stderr)
        }
    }
}

extension LiveServer {
    /// Gives `user` a verified address (as the email feature's verification leaves it); the address.
    func verifyEmail(of user: TestUser) async throws -> String {
        let email = "\(user.username)@mail.example"
        try await til.db.execute("UPDATE users SET email = \(email), email_verified_at = now() WHERE id = \(user.id)")
        return email
    }

    /// The token in the link of the newest reset mail to `recipient`, as its reader would find it.
    func resetToken(mailedTo recipient: String, file: StaticString = #filePath, line: UInt = #line) async throws -> String {
        let rows = try await til.db.query("""
            SELECT text_body FROM mail_outbox WHERE lower(recipient) = lower(\(recipient)) AND kind = 'password-reset' ORDER BY seq DESC LIMIT 1
            """)
        let text = try XCTUnwrap(rows.first, "no reset mail to \(recipient)", file: file, line: line).decode(column: "text_body", as: String.self)
        let start = try XCTUnwrap(text.range(of: "/reset-password?token="), text, file: file, line: line)
        return String(text[start.upperBound...].prefix { !$0.isWhitespace })
    }
}
