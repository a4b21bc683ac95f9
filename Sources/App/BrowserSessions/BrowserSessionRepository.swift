import Crypt
import Foundation
import Postgres

/// Browser sessions: `sessions` rows of kind `browser`, found by the SHA-256 digest of their
/// cookie (`browser_digest`). They hold no tokens, so no bearer check can ever find one, and
/// they end the way every session ends: `revoked_at` (logout-all, a password change, the
/// sessions DELETE route, the logout page) or their expiry. The expiry slides: each use at
/// least a minute after the last pushes it `BROWSER_SESSION_IDLE` ahead, never past
/// `SESSION_MAX_LIFETIME` after the login.
struct BrowserSessionRepository: Sendable {
    let db: PostgresClient
    let idle: Duration
    let maxLifetime: Duration

    /// The longest cookie value looked up; TIL's are 43 characters.
    static let maxCookieLength = 128

    /// A new session for `user`, started only while the password hash the login verified is
    /// still the stored one (`TokenRepository.startSession`'s proof, for the same race);
    /// nil when it is not. A new random value every time: no fixation. `amr` records how the
    /// sign-in was proven (RFC 8176), as a token pair's session does.
    func start(for user: User, userAgent: String?, amr: [String] = ["pwd"]) async throws -> BrowserSession? {
        let value = SecureRandom.token()
        let id = SecureRandom.uuid()
        let lifetime = maxLifetime.seconds
        let expiry = TokenRepository.fromNow(idle, cappedAt: lifetime)
        let rows = try await db.query("""
            INSERT INTO sessions (id, user_id, kind, browser_digest, scopes, user_agent, amr, auth_time, expires_at, refresh_expires_at)
            SELECT \(id), \(user.id), 'browser', \(SHA256.hex(of: value)), '', \(userAgent),
                   string_to_array(\(amr.joined(separator: " ")), ' '), now(), \(expiry), \(expiry)
            WHERE EXISTS (SELECT 1 FROM users WHERE id = \(user.id) AND password_hash = \(user.passwordHash) FOR SHARE)
                AND \(SecondFactorStillHeld.condition(for: user.id, amr: amr))
            RETURNING auth_time, ceil(extract(epoch FROM expires_at - now()))::int8 AS seconds_left,
                (SELECT is_admin FROM users WHERE id = \(user.id)) AS is_admin
            """)
        guard let row = rows.first else { return nil }
        return BrowserSession(
            id: id, user: user, isAdmin: try row.decode(column: "is_admin", as: Bool.self),
            authTime: try row.decode(column: "auth_time", as: Date.self), secondsSinceAuthentication: 0,
            secondsLeft: Int(try row.decode(column: "seconds_left", as: Int64.self)), cookieValue: value)
    }

    /// The live session `cookieValue` belongs to, its expiry slid forward, with its user's row
    /// (administrator flag included); nil for an unknown, ended or expired one. One statement;
    /// the digest is compared once more in constant time.
    func find(cookieValue: String) async throws -> BrowserSession? {
        guard !cookieValue.isEmpty, cookieValue.utf8.count <= Self.maxCookieLength else { return nil }
        let digest = SHA256.hex(of: cookieValue)
        let lifetime = maxLifetime.seconds
        let rows = try await db.query("""
            WITH hit AS (
                SELECT s.id AS session_id, s.browser_digest, s.expires_at,
                       coalesce(s.auth_time, s.created_at) AS auth_time,
                       extract(epoch FROM now() - coalesce(s.auth_time, s.created_at))::float8 AS auth_age,
                       s.last_used_at < now() - interval '60 seconds' AS stale,
                       least(\(TokenRepository.fromNow(idle, cappedAt: lifetime)), \(TokenRepository.end(of: "s.created_at", lifetime))) AS slid_until,
                       u.id, u.name, u.username, u.password_hash AS "passwordHash", u.is_admin
                FROM sessions s JOIN users u ON u.id = s.user_id
                WHERE s.browser_digest = \(digest) AND s.kind = 'browser' AND s.revoked_at IS NULL AND s.expires_at > now()
            ), touch AS (
                UPDATE sessions SET last_used_at = now(), expires_at = hit.slid_until, refresh_expires_at = hit.slid_until
                FROM hit WHERE sessions.id = hit.session_id AND hit.stale
                RETURNING sessions.expires_at
            )
            SELECT hit.*, ceil(extract(epoch FROM coalesce((SELECT expires_at FROM touch), hit.expires_at) - now()))::int8 AS seconds_left
            FROM hit
            """)
        guard let row = rows.first, ConstantTime.equals(try row.decode(column: "browser_digest", as: String.self), digest) else {
            return nil
        }
        return BrowserSession(
            id: try row.decode(column: "session_id", as: UUID.self), user: try UserRepository.user(row),
            isAdmin: try row.decode(column: "is_admin", as: Bool.self),
            authTime: try row.decode(column: "auth_time", as: Date.self),
            secondsSinceAuthentication: try row.decode(column: "auth_age", as: Double.self),
            secondsLeft: Int(try row.decode(column: "seconds_left", as: Int64.self)), cookieValue: cookieValue)
    }

    /// Ends the session `cookieValue` belongs to, if it is live; its id and user when it was.
    @discardableResult
    func end(cookieValue: String) async throws -> (sessionID: UUID, userID: UUID)? {
        guard !cookieValue.isEmpty, cookieValue.utf8.count <= Self.maxCookieLength else { return nil }
        let rows = try await db.query("""
            UPDATE sessions SET revoked_at = now()
            WHERE browser_digest = \(SHA256.hex(of: cookieValue)) AND kind = 'browser' AND revoked_at IS NULL
            RETURNING id, user_id
            """)
        guard let row = rows.first else { return nil }
        return (try row.decode(column: "id", as: UUID.self), try row.decode(column: "user_id", as: UUID.self))
    }
}
