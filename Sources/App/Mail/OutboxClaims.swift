import Foundation
import Postgres

/// The sender's statements on `mail_outbox`: claim due messages under a lease, and then
/// delete, defer, give up or hand back each one. Every statement is its own short
/// transaction: nothing is held open while a relay talks.
///
/// A claim takes up to `limit` due rows with `FOR UPDATE SKIP LOCKED` (two processes
/// claiming at once get different rows) and gives each a lease that ends when this pass
/// could at the latest still be sending it: the row sent k-th is held k × `lease`. A process
/// that dies holding rows frees them when their lease ends; one that merely runs late finds
/// its token gone (`claimed_by`) and changes nothing another pass claimed since.
struct OutboxClaims: Sendable {
    let db: PostgresClient
    /// How long one message may take, at most, from claim to its row's deletion.
    let lease: Duration

    /// One claimed message, as written by the transaction that queued it.
    struct Row: Sendable {
        let id: UUID
        let kind: String
        let recipient: String
        let subject: String
        let text: String
        let html: String
        let createdAt: Date
        /// Failed attempts before this one.
        let attempts: Int
        /// 1 for the row to send first: its lease is `place` × `lease`.
        let place: Int
    }

    /// `asOf` is the time the statements judge by (nil: the database's clock); tests move it
    /// forward instead of waiting out a backoff.
    func claim(limit: Int, token: UUID, asOf: Date?) async throws -> [Row] {
        let now: PostgresQuery = "coalesce(\(asOf), now())"
        let rows = try await db.query("""
            UPDATE mail_outbox m
            SET claimed_until = \(now) + c.place * \(lease.seconds) * interval '1 second', claimed_by = \(token)
            FROM (SELECT id, row_number() OVER (ORDER BY next_attempt_at, seq) AS place
                  FROM (SELECT id, next_attempt_at, seq FROM mail_outbox
                        WHERE NOT decoy AND next_attempt_at <= \(now) AND (claimed_until IS NULL OR claimed_until <= \(now))
                        ORDER BY next_attempt_at, seq LIMIT \(limit) FOR UPDATE SKIP LOCKED) AS due) AS c
            WHERE m.id = c.id
            RETURNING m.id, m.kind, m.recipient, m.subject, m.text_body, m.html_body, m.created_at, m.attempts, c.place
            """)
        return try rows.map { row in
            Row(
                id: try row.decode(column: "id"), kind: try row.decode(column: "kind"), recipient: try row.decode(column: "recipient"),
                subject: try row.decode(column: "subject"), text: try row.decode(column: "text_body"),
                html: try row.decode(column: "html_body"), createdAt: try row.decode(column: "created_at"),
                attempts: try row.decode(column: "attempts"), place: Int(try row.decode(column: "place", as: Int64.self)))
        }.sorted { $0.place < $1.place }
    }

    /// The relay took it: the row (and the token in its body) goes, whoever holds it now.
    func delivered(_ id: UUID) async throws {
        try await db.execute("DELETE FROM mail_outbox WHERE id = \(id)")
    }

    /// Another attempt after `delay`, the failure noted; false when the claim was lost meanwhile.
    @discardableResult
    func retry(_ id: UUID, token: UUID, after delay: Duration, error: String, asOf: Date?) async throws -> Bool {
        try await db.execute("""
            UPDATE mail_outbox
            SET attempts = attempts + 1, last_error = \(error),
                next_attempt_at = coalesce(\(asOf), now()) + \(delay.seconds) * interval '1 second',
                claimed_until = NULL, claimed_by = NULL
            WHERE id = \(id) AND claimed_by = \(token)
            """) == 1
    }

    /// The relay, not the message, failed: the attempt is noted and the row handed back still
    /// due (the sender pauses instead, `MailBackoff`); false when the claim was lost meanwhile.
    @discardableResult
    func relayFailed(_ id: UUID, token: UUID, error: String) async throws -> Bool {
        try await db.execute("""
            UPDATE mail_outbox SET attempts = attempts + 1, last_error = \(error), claimed_until = NULL, claimed_by = NULL
            WHERE id = \(id) AND claimed_by = \(token)
            """) == 1
    }

    /// The message is given up (refused for good, unsendable, or too old): its row goes.
    func giveUp(_ id: UUID, token: UUID) async throws {
        try await db.execute("DELETE FROM mail_outbox WHERE id = \(id) AND claimed_by = \(token)")
    }

    /// The pass's rows it did not get to, handed back untouched (due again at once).
    func release(token: UUID) async throws {
        try await db.execute("UPDATE mail_outbox SET claimed_until = NULL, claimed_by = NULL WHERE claimed_by = \(token)")
    }

    /// Deletes decoys (rows written only so an unknown account costs what a known one does),
    /// at most `limit`; how many went.
    func deleteDecoys(limit: Int) async throws -> Int {
        try await db.execute("""
            DELETE FROM mail_outbox WHERE id IN (
                SELECT id FROM mail_outbox WHERE decoy ORDER BY seq LIMIT \(limit) FOR UPDATE SKIP LOCKED)
            """)
    }
}
