import Crypt
import Foundation
import Postgres

/// Refresh-token rotation with reuse detection (OAuth 2.0 Security BCP §4.14).
///
/// A refresh token is redeemed by one atomic `UPDATE ... WHERE spent_at IS NULL`, in the same
/// transaction that issues its successor: of N concurrent presentations exactly one wins.
/// Presenting a spent token again means two parties hold it, so the whole session — every
/// token descended from that login — is revoked. That holds for as long as the session could
/// be live: spent tokens are kept until then (`TokenPurger`), and a spent token is a reuse
/// even past its own expiry, since a thief who refreshed first keeps the session going.
///
/// It also means that the losers of a race between two presentations of one token revoke the
/// winner's new pair: a client that sends its refresh twice at once (two tabs, a retry that
/// did not wait) logs itself out. That is the price of strict detection, since the server
/// cannot tell a second copy in the same client from one in a thief's hands.
/// `REFRESH_REUSE_GRACE` softens it for a client that lost the answer to a network error:
/// within the grace, the just-spent token buys a fresh pair and the pair from the first
/// presentation is revoked, so one pair stays live. Refreshes are limited per session
/// (`RefreshRateLimit`); a refused one spends nothing.
struct RefreshRotation: Sendable {
    let db: PostgresClient
    let tokens: TokenRepository
    let grace: Duration
    let limit: RefreshRateLimit

    enum Outcome: Sendable {
        case issued(Token)
        /// A spent token came back: its session is now revoked.
        case reuseDetected(sessionID: UUID, userID: UUID)
        /// The session refreshed too often; the token is not spent.
        case rateLimited(retryAfter: Double)
        case rejected(String)
    }

    /// Which sessions' refresh tokens a door redeems: each stays bound to how it was issued
    /// (issue 18). Another door's token is answered as unknown, and nothing is spent.
    enum Door: Sendable {
        /// `POST /api/users/refresh`: Basic-login sessions.
        case login
        /// The token endpoint: sessions this OAuth client was issued.
        case oauth(clientID: String)

        /// SQL on the session `s`.
        var condition: PostgresQuery {
            switch self {
            case .login: "s.kind = 'login'"
            case .oauth(let clientID): "s.kind = 'oauth' AND s.client_id = \(clientID)"
            }
        }
    }

    func redeem(_ value: String, at door: Door = .login) async throws -> Outcome {
        let digest = SHA256.hex(of: value)
        let (tokens, limit) = (tokens, limit)
        let issued = try await db.withTransaction { tx -> Token? in
            let rows = try await tx.query("""
                UPDATE refresh_tokens r SET spent_at = now()
                FROM sessions s
                WHERE r.digest = \(digest) AND r.spent_at IS NULL AND r.revoked_at IS NULL AND r.expires_at > now()
                  AND s.id = r.session_id AND s.revoked_at IS NULL AND \(door.condition)
                  AND \(limit.wait(sessionID: "s.id")) IS NULL
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
        return try await explainRefusal(digest: digest, at: door)
    }

    /// The token was not redeemable: unknown, its session over, a reuse, over the rate limit,
    /// or expired. A spent (or superseded) token of a live session is a reuse whatever its own
    /// expiry says; a session is live until it is ended or its refresh expiry passes.
    private func explainRefusal(digest: String, at door: Door) async throws -> Outcome {
        let rows = try await db.query("""
            SELECT r.id, r.session_id, s.user_id, s.revoked_at IS NOT NULL AS session_ended,
                   s.refresh_expires_at <= now() AS session_expired,
                   r.spent_at IS NOT NULL OR r.revoked_at IS NOT NULL AS used,
                   r.spent_at IS NOT NULL AND r.revoked_at IS NULL
                       AND r.spent_at > now() - \(grace.seconds) * interval '1 second' AS within_grace,
                   r.expires_at <= now() AS expired, \(limit.wait(sessionID: "s.id")) AS wait
            FROM refresh_tokens r JOIN sessions s ON s.id = r.session_id
            WHERE r.digest = \(digest) AND \(door.condition)
            """)
        guard let row = rows.first else { return .rejected("The refresh token is unknown.") }
        if try row.decode(column: "session_ended", as: Bool.self) { return .rejected("The session has ended.") }
        if try row.decode(column: "session_expired", as: Bool.self) { return .rejected("The refresh token expired.") }
        let wait = try row.decode(column: "wait", as: Double?.self)
        guard try row.decode(column: "used", as: Bool.self) else {
            if try row.decode(column: "expired", as: Bool.self) { return .rejected("The refresh token expired.") }
            // Unspent and live: over the limit, or the limit's minute ended between the two statements.
            return .rateLimited(retryAfter: wait ?? 1)
        }
        let tokenID = try row.decode(column: "id", as: UUID.self)
        let sessionID = try row.decode(column: "session_id", as: UUID.self)
        if grace > .zero, try row.decode(column: "within_grace", as: Bool.self) {
            if let wait { return .rateLimited(retryAfter: wait) }
            if let outcome = try await reissue(parent: tokenID) { return outcome }
        }
        try await db.execute("UPDATE sessions SET revoked_at = now() WHERE id = \(sessionID) AND revoked_at IS NULL")
        return .reuseDetected(sessionID: sessionID, userID: try row.decode(column: "user_id", as: UUID.self))
    }

    /// Within the grace: revoke the pair the first presentation got and issue another. The
    /// spent token is locked, so concurrent retries queue and each revokes the pair of the one
    /// before; its successors are locked too, so a retry and a refresh with the successor
    /// cannot both go through (two live branches). Nil when a successor was already used (a
    /// refresh of its own): then this is a reuse after all.
    private func reissue(parent: UUID) async throws -> Outcome? {
        let (tokens, limit) = (tokens, limit)
        return try await db.withTransaction { tx -> Outcome? in
            let locked = try await tx.query("""
                SELECT r.session_id, s.user_id, s.scopes FROM refresh_tokens r JOIN sessions s ON s.id = r.session_id
                WHERE r.id = \(parent) AND s.revoked_at IS NULL FOR UPDATE OF r
                """)
            guard let row = locked.first else { return nil }
            // A statement of its own, after the parent's lock: its snapshot sees every retry before.
            let successors = try await tx.query("""
                SELECT c.spent_at IS NOT NULL AS spent, \(limit.wait(sessionID: "c.session_id")) AS wait
                FROM refresh_tokens c WHERE c.parent_id = \(parent) FOR UPDATE
                """)
            guard try !successors.contains(where: { try $0.decode(column: "spent", as: Bool.self) }) else { return nil }
            if let wait = try successors.compactMap({ try $0.decode(column: "wait", as: Double?.self) }).first {
                return .rateLimited(retryAfter: wait)
            }
            try await tx.execute("""
                WITH superseded AS (
                    UPDATE refresh_tokens SET revoked_at = now()
                    WHERE parent_id = \(parent) AND revoked_at IS NULL
                    RETURNING access_token_id
                )
                UPDATE tokens SET revoked_at = now() WHERE id IN (SELECT access_token_id FROM superseded)
                """)
            return .issued(try await tokens.rotate(
                on: tx, sessionID: try row.decode(column: "session_id", as: UUID.self),
                userID: try row.decode(column: "user_id", as: UUID.self),
                scopes: Scope.stored(try row.decode(column: "scopes", as: String.self)), parentID: parent))
        }
    }
}
