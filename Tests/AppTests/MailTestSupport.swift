import AppTesting
import Foundation
import MailTesting
import Postgres
import XCTest
@testable import App

/// What the mail tests share: the settings that point an app at a sink, a way to queue a
/// message as a feature would (its own transaction), and the outbox rows as stored.
enum MailTestSupport {
    static let from = "TIL <no-reply@til.example>"

    /// `SMTP_URL` and `MAIL_FROM` for `sink`, with `more` on top.
    static func settings(_ sink: MailSink, _ more: [String: String] = [:]) -> [String: String] {
        ["SMTP_URL": "smtp://127.0.0.1:\(sink.port)", "MAIL_FROM": from, "SMTP_TIMEOUT": "5"].merging(more) { $1 }
    }

    /// A message like a feature's, to `recipient`.
    static func mail(to recipient: String = "ada@example.com", subject: String = "Reset your TIL password", token: String = "t0k3n")
        -> OutgoingMail
    {
        MailLayout.compose(
            kind: .passwordReset, to: recipient, subject: subject, paragraphs: ["Someone asked to reset the password of ada."],
            link: MailLink(url: "https://til.example/reset-password?token=\(token)", label: "Choose a new password", lifetime: "30 minutes"))
    }

    /// Queues `mail` in a transaction of its own; the new row's id.
    @discardableResult
    static func queue(_ mail: OutgoingMail, on db: PostgresClient) async throws -> UUID {
        try await db.withTransaction { transaction in
            try await transaction.query("\(MailOutbox.enqueue(mail)) RETURNING id")[0].decode(column: "id", as: UUID.self)
        }
    }

    struct StoredRow {
        let id: UUID
        let attempts: Int
        let lastError: String?
        let dueInSeconds: Double
        let claimed: Bool
    }

    /// Every row of the outbox, oldest first.
    static func rows(on db: PostgresClient) async throws -> [StoredRow] {
        try await db.query("""
            SELECT id, attempts, last_error, extract(epoch FROM next_attempt_at - now())::float8 AS due_in,
                   claimed_until IS NOT NULL AS claimed
            FROM mail_outbox ORDER BY seq
            """).map {
            StoredRow(
                id: try $0.decode(column: "id"), attempts: try $0.decode(column: "attempts"),
                lastError: try $0.decode(column: "last_error", as: String?.self), dueInSeconds: try $0.decode(column: "due_in"),
                claimed: try $0.decode(column: "claimed"))
        }
    }

    /// A sink, stopped when the test ends.
    static func sink(_ test: XCTestCase, certificateFile: String? = nil, privateKeyFile: String? = nil) throws -> MailSink {
        let sink = try MailSink(certificateFile: certificateFile, privateKeyFile: privateKeyFile)
        test.addTeardownBlock { sink.stop() }
        return sink
    }
}
