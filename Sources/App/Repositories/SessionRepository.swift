import Foundation
import Postgres

/// Logins as their owner sees and ends them. Ending a session revokes every token of it: the
/// access-token check and refresh redemption both require the session to be live. Personal
/// access tokens are sessions too (kind `pat`), but not logins: they are listed and revoked
/// under `/api/users/me/tokens` (`PersonalAccessTokenRepository`), never here.
struct SessionRepository: Sendable {
    let db: PostgresClient

    /// The user's live sessions (not ended, refresh not expired), oldest first. Paged by
    /// (created_at, id), the user's own values: never by `seq`, which counts everyone's logins.
    func live(of userID: UUID, current: UUID?, page: PageRequest? = nil) async throws -> Page<SessionInfo> {
        try Page(rows: try await db.query("""
            SELECT id, created_at, last_used_at, expires_at, refresh_expires_at, user_agent, scopes, kind,
                   array_to_string(amr, ' ') AS amr, auth_time,
                   (SELECT c.name FROM oauth_clients c WHERE c.id = sessions.client_id) AS client_name,
                   \(unescaped: ListPosition.sessionCreatedMicros) AS page_created
            FROM sessions
            WHERE user_id = \(userID) AND revoked_at IS NULL AND refresh_expires_at > now() AND kind <> 'pat'
              AND \(sessionsAfter: page)
            ORDER BY created_at, id\(limitOf: page)
            """), request: page) { row in
            let id = try row.decode(column: "id", as: UUID.self)
            return SessionInfo(
                id: id,
                createdAt: try row.decode(column: "created_at", as: Date.self),
                lastUsedAt: try row.decode(column: "last_used_at", as: Date.self),
                expiresAt: try row.decode(column: "expires_at", as: Date.self),
                refreshExpiresAt: try row.decode(column: "refresh_expires_at", as: Date.self),
                userAgent: try row.decode(column: "user_agent", as: String?.self),
                scopes: try row.decode(column: "scopes", as: String.self).split(separator: " ").map { Scope(rawValue: String($0)) },
                current: id == current, kind: try row.decode(column: "kind", as: String.self),
                clientName: try row.decode(column: "client_name", as: String?.self),
                amr: try row.decode(column: "amr", as: String.self).split(separator: " ").map(String.init),
                authTime: try row.decode(column: "auth_time", as: Date?.self))
        }
    }

    /// Records a re-authentication of `sessionID` (RFC 9470): its `auth_time` becomes now and its
    /// `amr` what proved it, while the proof still stands — `user`'s password hash is the one
    /// that was verified (unless `amr` names no password) and the factor `amr` names is still
    /// held, read `FOR SHARE` as a login's session start reads them. False when the session has
    /// ended or the account changed meanwhile.
    func renewAuthentication(of sessionID: UUID, user: User, amr: [String]) async throws -> Bool {
        let password: PostgresQuery = amr.contains("pwd")
            ? "EXISTS (SELECT 1 FROM users WHERE id = \(user.id) AND password_hash = \(user.passwordHash) FOR SHARE)"
            : "true"
        return try await db.execute("""
            UPDATE sessions SET auth_time = now(), amr = string_to_array(\(amr.joined(separator: " ")), ' ')
            WHERE id = \(sessionID) AND user_id = \(user.id) AND revoked_at IS NULL
              AND \(password) AND \(SecondFactorStillHeld.condition(for: user.id, amr: amr))
            """) == 1
    }

    /// Ends one live session of `userID`; false when there is none with that id (another
    /// user's sessions are as invisible as unknown ones).
    func end(_ sessionID: UUID, of userID: UUID) async throws -> Bool {
        try await db.execute("""
            UPDATE sessions SET revoked_at = now()
            WHERE id = \(sessionID) AND user_id = \(userID) AND revoked_at IS NULL AND refresh_expires_at > now() AND kind <> 'pat'
            """) > 0
    }

    /// Ends every live session of `userID` except `kept` (nil: all of them), on `runner` when
    /// it belongs to a larger transaction; how many ended. Personal access tokens end too
    /// unless `keepingPersonalAccessTokens`: logout-all and the password change keep them (they
    /// end logins, and a script's token is not one), a password reset, an operator's new
    /// password and a second-factor reset end them (the account may be in the wrong hands).
    @discardableResult
    func endAll(
        of userID: UUID, except kept: UUID? = nil, keepingPersonalAccessTokens: Bool = false, on runner: any PostgresQueryable
    ) async throws -> Int {
        try await runner.execute("""
            UPDATE sessions SET revoked_at = now()
            WHERE user_id = \(userID) AND revoked_at IS NULL AND id IS DISTINCT FROM \(kept)
              AND NOT (\(keepingPersonalAccessTokens) AND kind = 'pat')
            """)
    }
}
