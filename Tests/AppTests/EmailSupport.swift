import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// A message in the outbox as the email tests read it: the sender loop does not run in
/// testing, so a queued mail is a `mail_outbox` row.
struct QueuedMail: Equatable {
    var kind: String
    var recipient: String
    var subject: String
    var text: String
    var html: String

    /// The token of the verification link the mail carries, if any.
    var linkToken: String? {
        guard let range = text.range(of: #"/verify-email\?token=[A-Za-z0-9_-]+"#, options: .regularExpression) else { return nil }
        return String(text[range].split(separator: "=").last ?? "")
    }
}

extension TestApp {
    /// Every mail queued so far (to `recipient` only, when given), oldest first.
    func queuedMails(to recipient: String? = nil) async throws -> [QueuedMail] {
        try await til.db.query("""
            SELECT kind, recipient, subject, text_body, html_body FROM mail_outbox
            WHERE \(recipient)::text IS NULL OR recipient = \(recipient) ORDER BY seq
            """).map { row in
            QueuedMail(
                kind: try row.decode(column: "kind", as: String.self), recipient: try row.decode(column: "recipient", as: String.self),
                subject: try row.decode(column: "subject", as: String.self), text: try row.decode(column: "text_body", as: String.self),
                html: try row.decode(column: "html_body", as: String.self))
        }
    }

    /// The token of the newest verification link mailed to `recipient`.
    func verificationToken(mailedTo recipient: String, file: StaticString = #filePath, line: UInt = #line) async throws -> String {
        let mail = try await queuedMails(to: recipient).last { $0.kind == "email-verification" }
        return try XCTUnwrap(mail?.linkToken, "no verification link mailed to \(recipient)", file: file, line: line)
    }

    /// `POST /api/users` as the admin: `username` (password "s3cret-pass") with `email`.
    func createUser(_ username: String, name: String = "Tester", email: String) async throws -> TestResponse {
        let admin = try await client.session("admin")
        return try await client.send(
            .post, "/api/users", json: ["name": name, "username": username, "password": "s3cret-pass", "email": email],
            auth: .bearer(admin.value))
    }

    /// A new user `username` (password "password") holding `email`, verified or not.
    func user(_ username: String, email: String, verified: Bool) async throws -> User {
        let user = try await User.create(username: username, on: self)
        try await til.db.execute("""
            UPDATE users SET email = \(email), email_verified_at = CASE WHEN \(verified) THEN now() END WHERE id = \(user.id)
            """)
        return user
    }

    /// Where `userID`'s address stands in the database: (email, verified).
    func storedEmail(of userID: UUID) async throws -> (email: String?, verified: Bool) {
        let rows = try await til.db.query("""
            SELECT email, email_verified_at IS NOT NULL AS verified FROM users WHERE id = \(userID)
            """)
        let row = try XCTUnwrap(rows.first)
        return (try row.decode(column: "email", as: String?.self), try row.decode(column: "verified", as: Bool.self))
    }
}

extension TestClient {
    /// `GET /api/users/me` with `token`, decoded.
    func profile(_ token: String, file: StaticString = #filePath, line: UInt = #line) async throws -> AccountProfile {
        let response = try await send(.get, "/api/users/me", auth: .bearer(token))
        XCTAssertEqual(response.status.code, 200, response.bodyString, file: file, line: line)
        return try response.decode(AccountProfile.self)
    }

    /// `POST /api/users/email/verify` with `token`.
    func verifyEmail(_ token: String) async throws -> TestResponse {
        try await send(.post, "/api/users/email/verify", json: ["token": token])
    }

    /// `PUT /api/users/me/email` as the holder of `bearer`.
    func changeEmail(to email: String, password: String = "password", bearer: String) async throws -> TestResponse {
        try await send(.put, "/api/users/me/email", json: ["email": email, "currentPassword": password], auth: .bearer(bearer))
    }
}
