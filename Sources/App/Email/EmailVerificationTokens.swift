import Crypt
import Foundation
import Postgres

/// The tokens of verification links: 256 random bits (OpenSSL), stored as their SHA-256 only,
/// each tied to one user and one address, living `lifetime`, spent once. A token proves either
/// the account's current address (`verify`) or a pending change to another one (`change`).
enum EmailVerificationTokens {
    static let lifetime: TimeInterval = 24 * 3600
    /// Longer than any token TIL issues (43 characters): not looked up at all.
    static let maxTokenBytes = 128

    enum Purpose: String, Sendable {
        case verify, change
    }

    /// What a spent token proved.
    struct Spent: Sendable {
        let userID: UUID
        let email: String
        let purpose: Purpose
    }

    /// A new token for `email` of `userID`, and the statement that stores its digest: run it in
    /// the transaction that queues the mail carrying the token.
    static func issue(for userID: UUID, email: String, purpose: Purpose) -> (token: String, insert: PostgresQuery) {
        let token = SecureRandom.token()
        let insert: PostgresQuery = """
            INSERT INTO email_verifications (digest, user_id, email, purpose, expires_at)
            VALUES (\(SHA256.hex(of: token)), \(userID), \(email), \(purpose.rawValue), now() + \(lifetime) * interval '1 second')
            """
        return (token, insert)
    }

    /// The user a live `token` is for, read without a lock: the verification locks that user's
    /// row first, then spends the token (always in that order, so two verifications of one
    /// account never wait on each other in a cycle). Nil for a token of no known shape.
    static func owner(of token: String, on runner: any PostgresQueryable) async throws -> UUID? {
        guard isPlausible(token) else { return nil }
        return try await runner.query("""
            SELECT user_id FROM email_verifications WHERE digest = \(SHA256.hex(of: token)) AND expires_at > now()
            """).first?.decode(column: "user_id", as: UUID.self)
    }

    /// Spends `token` on `runner`'s transaction: deleted, and what it proved returned; nil when
    /// it is unknown, expired or spent already (a second request with it, even at the same
    /// moment, waits for the first's row lock, then finds it gone).
    static func spend(_ token: String, on runner: any PostgresQueryable) async throws -> Spent? {
        guard isPlausible(token) else { return nil }
        let digest = SHA256.hex(of: token)
        let rows = try await runner.query("""
            DELETE FROM email_verifications WHERE digest = \(digest) AND expires_at > now()
            RETURNING digest, user_id, email, purpose
            """)
        guard let row = rows.first, ConstantTime.equals(try row.decode(column: "digest", as: String.self), digest),
            let purpose = Purpose(rawValue: try row.decode(column: "purpose", as: String.self))
        else { return nil }
        return Spent(
            userID: try row.decode(column: "user_id", as: UUID.self), email: try row.decode(column: "email", as: String.self),
            purpose: purpose)
    }

    /// Drops `userID`'s pending change, if any: a new change replaces it.
    static func dropPendingChange(of userID: UUID) -> PostgresQuery {
        "DELETE FROM email_verifications WHERE user_id = \(userID) AND purpose = 'change'"
    }

    /// Drops every token of `userID`: once a change is made, no older link proves anything.
    static func dropAll(of userID: UUID) -> PostgresQuery {
        "DELETE FROM email_verifications WHERE user_id = \(userID)"
    }

    private static func isPlausible(_ token: String) -> Bool {
        !token.isEmpty && token.utf8.count <= maxTokenBytes
    }
}
