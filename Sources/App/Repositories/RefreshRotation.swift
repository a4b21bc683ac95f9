import Crypt
import Foundation
import Postgres

/// Refresh-token rotation with reuse detection (OAuth 2.0 Security BCP §4.14).
///
/// A refresh token is redeemed by one atomic `UPDATE ... WHERE spent_at IS NULL`, in the same
/// transaction that issues its successor: of N concurrent presentations exactly one wins.
/// Presenting a spent token again means two parties hold it, so the whole session — every
/// token descended from that login — is revoked. `REFRESH_REUSE_GRACE` softens that for a
/// client that lost the answer to a network error: within the grace, the just-spent token
/// buys a fresh pair and the pair from the first presentation is revoked, so one pair stays live.
struct RefreshRotation: Sendable {
    let db: PostgresClient
    let tokens: TokenRepository
    let grace: Duration

    enum Outcome: Sendable {
        case issued(Token)
        /// A spent token came back: its session is now revoked.
        case reuseDetected(sessionID: UUID, userID: UUID)
        case rejected(String)
    }

    func redeem(_ value: String) async throws -> Outcome {
        let digest = SHA256.hex(of: value)
        let tokens = tokens
        let issued = try await db.withTransaction { tx -> Token? in
            let rows = try await tx.query("""
                UPDATE refresh_tokens r SET spent_at = now()
                FROM sessions s
                WHERE r.digest = \(digest) AND r.spent_at IS NULL AND r.revoked_at IS NULL AND r.expires_at > now()
                  AND s.id = r.session_id AND s.revoked_at IS NULL
                RETURNING r.id, r.session_id, s.user_id, s.scopes
                """)
            guard let row = rows.first else { return nil }
            return try await tokens.rotate(
                on: tx, sessionID: try row.decode(column: "session_id", as: UUID.self),
                userID: try row.decode(column: "user_id", as: UUID.self),
                scopes: Scope.stored(try row.decode(column: "scopes", as: String.self)),
                parentID: try row.decode(column: "id", as: UUID.self))
        }
        if let issued { return .issued(issued) }
        return try await explainRefusal(digest: digest)
    }

    /// The token was not redeemable: unknown, expired, its session over, or a reuse.
    private func explainRefusal(digest: String) async throws -> Outcome {
        let rows = try await db.query("""
            SELECT r.id, r.session_id, s.user_id, r.expires_at <= now() AS expired,
                   s.revoked_at IS NOT NULL AS session_ended,
                   r.spent_at IS NOT NULL AND r.revoked_at IS NULL
                       AND r.spent_at > now() - \(grace.seconds) * interval '1 second' AS within_grace
            FROM refresh_tokens r JOIN sessions s ON s.id = r.session_id
            WHERE r.digest = \(digest)
            """)
        guard let row = rows.first else { return .rejected("The refresh token is unknown.") }
        if try row.decode(column: "session_ended", as: Bool.self) { return .rejected("The session has ended.") }
        if try row.decode(column: "expired", as: Bool.self) { return .rejected("The refresh token expired.") }
        let tokenID = try row.decode(column: "id", as: UUID.self)
        let sessionID = try row.decode(column: "session_id", as: UUID.self)
        let userID = try row.decode(column: "user_id", as: UUID.self)
        if grace > .zero, try row.decode(column: "within_grace", as: Bool.self), let pair = try await reissue(parent: tokenID) {
            return .issued(pair)
        }
        try await db.execute("UPDATE sessions SET revoked_at = now() WHERE id = \(sessionID) AND revoked_at IS NULL")
        return .reuseDetected(sessionID: sessionID, userID: userID)
    }

    /// Within the grace: revoke the pair the first presentation got and issue another, under a
    /// lock on the spent token so that concurrent retries leave exactly one pair live. Nil when
    /// that pair was already used (a refresh of its own): then this is a reuse after all.
    private func reissue(parent: UUID) async throws -> Token? {
        let tokens = tokens
        return try await db.withTransaction { tx -> Token? in
            let locked = try await tx.query("""
                SELECT r.session_id, s.user_id, s.scopes FROM refresh_tokens r JOIN sessions s ON s.id = r.session_id
                WHERE r.id = \(parent) AND s.revoked_at IS NULL FOR UPDATE OF r
                """)
            guard let row = locked.first else { return nil }
            let successorUsed = try await tx.query("""
                SELECT 1 FROM refresh_tokens WHERE parent_id = \(parent) AND spent_at IS NOT NULL
                """)
            guard successorUsed.isEmpty else { return nil }
            try await tx.execute("""
                WITH superseded AS (
                    UPDATE refresh_tokens SET revoked_at = now()
                    WHERE parent_id = \(parent) AND revoked_at IS NULL
                    RETURNING access_token_id
                )
                UPDATE tokens SET revoked_at = now() WHERE id IN (SELECT access_token_id FROM superseded)
                """)
            return try await tokens.rotate(
                on: tx, sessionID: try row.decode(column: "session_id", as: UUID.self),
                userID: try row.decode(column: "user_id", as: UUID.self),
                scopes: Scope.stored(try row.decode(column: "scopes", as: String.self)), parentID: parent)
        }
    }
}
