import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The reset tests' shared steps: an account whose email is verified (set in SQL, as the
/// email feature's verification would leave it), the request, the link's token read from the
/// outbox row the request queued (as a mail reader finds it in the message), and the confirm.
extension TestApp {
    /// A user (password "password") with `email`, verified.
    func userWithVerifiedEmail(username: String? = nil, email: String? = nil) async throws -> (user: User, email: String) {
        let user = try await User.create(username: username, on: self)
        let address = email ?? "\(UUID().uuidString.prefix(8).lowercased())@mail.example"
        try await til.db.execute("UPDATE users SET email = \(address), email_verified_at = now() WHERE id = \(user.id)")
        return (user, address)
    }

    /// `POST /api/users/password-reset {"login"}`.
    func requestReset(_ login: String, on client: TestClient? = nil, headers: HTTPHeaders = [:]) async throws -> TestResponse {
        try await (client ?? self.client).send(.post, "/api/users/password-reset", headers: headers, json: ["login": login])
    }

    /// `POST /api/users/password-reset/confirm` with `fields`.
    func confirmReset(_ fields: [String: String], on client: TestClient? = nil) async throws -> TestResponse {
        try await (client ?? self.client).send(.post, "/api/users/password-reset/confirm", json: fields)
    }

    /// Requests a reset for `login` (asserting the 202) and answers the link's token from the
    /// newest mail to `recipient`.
    func resetToken(for login: String, mailedTo recipient: String, file: StaticString = #filePath, line: UInt = #line) async throws -> String {
        let response = try await requestReset(login)
        XCTAssertEqual(response.status.code, 202, response.bodyString, file: file, line: line)
        return try await newestResetToken(mailedTo: recipient, file: file, line: line)
    }

    /// The token in the link of the newest reset mail queued for `recipient`.
    func newestResetToken(mailedTo recipient: String, file: StaticString = #filePath, line: UInt = #line) async throws -> String {
        let row = try await til.db.query("""
            SELECT text_body FROM mail_outbox WHERE recipient = \(recipient) AND kind = 'password-reset' ORDER BY seq DESC LIMIT 1
            """).first
        let text = try XCTUnwrap(row, "no reset mail to \(recipient)", file: file, line: line).decode(column: "text_body", as: String.self)
        return try XCTUnwrap(Self.resetToken(inMail: text), "no link in: \(text)", file: file, line: line)
    }

    /// The token of the `/reset-password?token=` link in a mail's text.
    static func resetToken(inMail text: String) -> String? {
        guard let start = text.range(of: "/reset-password?token=") else { return nil }
        return String(text[start.upperBound...].prefix { !$0.isWhitespace })
    }

    /// Outbox rows of `kind` for `recipient` (real mails), and decoys of `kind`.
    func mails(_ kind: MailKind, to recipient: String) async throws -> Int {
        try await number("SELECT count(*)::int AS n FROM mail_outbox WHERE kind = \(kind.rawValue) AND recipient = \(recipient) AND NOT decoy")
    }

    func decoys(_ kind: MailKind) async throws -> Int {
        try await number("SELECT count(*)::int AS n FROM mail_outbox WHERE kind = \(kind.rawValue) AND decoy")
    }

    /// Live (not ended) sessions of `userID`, of every kind.
    func liveSessions(of userID: UUID) async throws -> Int {
        try await number("SELECT count(*)::int AS n FROM sessions WHERE user_id = \(userID) AND revoked_at IS NULL")
    }
}
