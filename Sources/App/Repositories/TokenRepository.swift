import Crypt
import Foundation
import Postgres

/// Access and refresh tokens, stored as SHA-256 digests only: a leaked table grants nothing.
///
/// Every token belongs to a session (one login). Issuing a pair is one statement, so a
/// session never exists with half a pair; checking an access token is one statement too, and
/// it also refreshes the session's `last_used_at` (at most once a minute, so a busy client
/// does not turn every read into a write).
struct TokenRepository: Sendable {
    let db: PostgresClient
    let settings: AuthSettings

    /// What an access token turned out to be.
    enum Check: Sendable {
        case valid(BearerIdentity)
        /// A live token without a user (`client_credentials`): only a client stands behind it.
        case clientOnly(ClientIdentity)
        /// A live token bound to another resource (RFC 8707): not for TIL's API.
        case otherAudience
        case expired
        case revoked
        case unknown
    }

    /// A new session for `user` with its first pair, started only while the password hash the
    /// login verified is still the stored one; nil when it is not. Its `auth_time` is now: a
    /// refresh (`rotate`) keeps it, only a re-authentication renews it. Without that check a login
    /// whose bcrypt ran while the password was changed or set by an operator (which ends every
    /// session) would start a session after the ending: proven with a password that is gone.
    /// The check reads the user row `FOR SHARE`, so a change waits for this statement, and its
    /// ending of sessions then sees the new one. `amr` records how the login was proven (RFC
    /// 8176: `pwd`, and `otp`, `mfa` after a second factor).
    func startSession(for user: User, scopes: [Scope], userAgent: String?, amr: [String] = ["pwd"]) async throws -> Token? {
        let proof: PostgresQuery = """
            EXISTS (SELECT 1 FROM users WHERE id = \(user.id) AND password_hash = \(user.passwordHash) FOR SHARE)
            AND \(SecondFactorStillHeld.condition(for: user.id, amr: amr))
            """
        return try await issuePair(
            on: db, sessionID: SecureRandom.uuid(), userID: user.id, scopes: scopes, userAgent: userAgent, parentID: nil, amr: amr,
            if: proof)
    }

    /// The next pair of an existing session, issued in place of the refresh token `parentID`.
    /// Runs inside the transaction that spent the parent, so the two happen together or not at all.
    func rotate(on tx: any PostgresQueryable, sessionID: UUID, userID: UUID, scopes: [Scope], parentID: UUID) async throws -> Token {
        guard let token = try await issuePair(
            on: tx, sessionID: sessionID, userID: userID, scopes: scopes, userAgent: nil, parentID: parentID, if: "TRUE")
        else { throw PostgresError(.server, message: "the session vanished while its tokens were issued") }
        return token
    }

    /// One statement for both: the session row is created (a login) or has its expiries
    /// renewed (a refresh: the id exists, so the insert becomes that update), then the pair is
    /// stored against it with the session's new expiries. Expiries are truncated to the second,
    /// as the wire writes them (`WireDate`): the time a client is shown is the time enforced.
    /// Neither expiry passes the session's absolute end, `SESSION_MAX_LIFETIME` after its
    /// login (`created_at`), so no number of refreshes keeps a session alive longer. Nothing is
    /// stored, and the answer is nil, unless `condition` holds.
    private func issuePair(
        on runner: any PostgresQueryable, sessionID: UUID, userID: UUID, scopes: [Scope], userAgent: String?, parentID: UUID?,
        amr: [String] = ["pwd"], if condition: PostgresQuery
    ) async throws -> Token? {
        let fresh = FreshPair()
        let lifetime = settings.sessionMaxLifetime.seconds
        let rows = try await runner.query("""
            WITH session AS (
                INSERT INTO sessions (id, user_id, scopes, user_agent, amr, auth_time, expires_at, refresh_expires_at)
                SELECT \(sessionID), \(userID), \(Scope.storageText(scopes)), \(userAgent),
                       string_to_array(\(amr.joined(separator: " ")), ' '), now(),
                       \(Self.fromNow(settings.tokenTTL, cappedAt: lifetime)),
                       \(Self.fromNow(settings.refreshTokenTTL, cappedAt: lifetime))
                WHERE \(condition)
                ON CONFLICT (id) DO UPDATE SET last_used_at = now(),
                    expires_at = least(EXCLUDED.expires_at, \(Self.end(of: "sessions.created_at", lifetime))),
                    refresh_expires_at = least(EXCLUDED.refresh_expires_at, \(Self.end(of: "sessions.created_at", lifetime)))
                RETURNING expires_at, refresh_expires_at
            ), access AS (
                INSERT INTO tokens (id, digest, user_id, session_id, expires_at)
                SELECT \(fresh.accessID), \(fresh.accessDigest), \(userID), \(sessionID), expires_at FROM session
            ), refresh AS (
                INSERT INTO refresh_tokens (id, digest, session_id, parent_id, access_token_id, expires_at)
                SELECT \(fresh.refreshID), \(fresh.refreshDigest), \(sessionID), \(parentID), \(fresh.accessID), refresh_expires_at
                FROM session
            )
            SELECT expires_at, refresh_expires_at FROM session
            """)
        guard let row = rows.first else { return nil }
        return try fresh.token(sessionID: sessionID, userID: userID, scopes: scopes, row: row)
    }

    /// SQL: `ttl` from now, but not past the end of a session that starts now; whole seconds.
    static func fromNow(_ ttl: Duration, cappedAt lifetime: Double) -> PostgresQuery {
        "least(date_trunc('second', now() + \(ttl.seconds) * interval '1 second'), \(end(of: "now()", lifetime)))"
    }

    /// SQL: the absolute end of a session that started at `start`; whole seconds.
    static func end(of start: String, _ lifetime: Double) -> PostgresQuery {
        "date_trunc('second', \(unescaped: start) + \(lifetime) * interval '1 second')"
    }

    /// Looks an access token up by digest, in one statement. The digest is compared once more
    /// in constant time: the index lookup is not meant to be the check. A token shaped like a
    /// personal access token (`til_pat_…`) must belong to a `pat` session, and its use is
    /// recorded with `address` (`SessionTouch`); any other token's statement is unchanged.
    func authenticate(_ value: String, from address: String) async throws -> Check {
        let digest = SHA256.hex(of: value)
        let personal = PersonalAccessToken.isShaped(value)
        let touch = SessionTouch(personalFrom: personal ? address : nil)
        let rows = try await db.query("""
            WITH hit AS (
                SELECT t.digest, t.expires_at <= now() AS expired,
                       (t.revoked_at IS NOT NULL OR s.revoked_at IS NOT NULL) AS revoked,
                       s.id AS session_id, coalesce(t.scopes, s.scopes) AS scopes,
                       \(touch.isDue) AS stale,
                       s.audience IS NOT NULL AS foreign, s.client_id, s.kind,
                       extract(epoch FROM now() - s.auth_time)::float8 AS auth_age,
                       u.id, u.name, u.username, u.password_hash AS "passwordHash"
                FROM tokens t JOIN sessions s ON s.id = t.session_id LEFT JOIN users u ON u.id = s.user_id
                WHERE t.digest = \(digest)\(touch.restriction)
            ), touch AS (
                UPDATE sessions SET \(touch.assignments) FROM hit
                WHERE sessions.id = hit.session_id AND hit.stale AND NOT hit.expired AND NOT hit.revoked
            )
            SELECT * FROM hit
            """)
        guard let row = rows.first, ConstantTime.equals(try row.decode(column: "digest", as: String.self), digest) else {
            return .unknown
        }
        if try row.decode(column: "revoked", as: Bool.self) { return .revoked }
        if try row.decode(column: "expired", as: Bool.self) { return .expired }
        if try row.decode(column: "foreign", as: Bool.self) { return .otherAudience }
        let sessionID = try row.decode(column: "session_id", as: UUID.self)
        guard try row.decode(column: "id", as: UUID?.self) != nil else {
            return .clientOnly(ClientIdentity(
                clientID: try row.decode(column: "client_id", as: String?.self) ?? "", sessionID: sessionID,
                scopes: Scope.stored(try row.decode(column: "scopes", as: String.self))))
        }
        let scopes = try row.decode(column: "scopes", as: String.self)
        return .valid(BearerIdentity(
            user: try UserRepository.user(row),
            sessionID: try row.decode(column: "session_id", as: UUID.self),
            scopes: Scope.stored(scopes), scopeNames: scopes.split(separator: " ").map(String.init),
            kind: try row.decode(column: "kind", as: String.self), clientID: try row.decode(column: "client_id", as: String?.self),
            secondsSinceAuthentication: try row.decode(column: "auth_age", as: Double?.self)))
    }
}

/// The random values and ids of one new pair, made before the statement that stores their digests.
private struct FreshPair {
    let accessID = SecureRandom.uuid()
    let refreshID = SecureRandom.uuid()
    let access = SecureRandom.token()
    let refresh = SecureRandom.token()
    var accessDigest: String { SHA256.hex(of: access) }
    var refreshDigest: String { SHA256.hex(of: refresh) }

    func token(sessionID: UUID, userID: UUID, scopes: [Scope], row: PostgresRow) throws -> Token {
        return Token(
            id: sessionID, value: access, user: UserReference(id: userID),
            expiresAt: try row.decode(column: "expires_at", as: Date.self), refreshToken: refresh,
            refreshExpiresAt: try row.decode(column: "refresh_expires_at", as: Date.self), scopes: scopes)
    }
}
