import Crypt
import Foundation
import Postgres

/// Starts OAuth sessions (`kind 'oauth'`): TIL sessions like a login's, so the same bearer
/// middleware, expiry, revocation and session list apply, but bound to a client, perhaps to
/// another resource (`audience`, RFC 8707), perhaps without a user (`client_credentials`).
/// The session, its access token and its refresh token (when the grant gives one) are one
/// statement, so none exists without the others.
struct OAuthTokenIssuer: Sendable {
    let settings: AuthSettings

    /// What to issue.
    struct Grant: Sendable {
        var userID: UUID?
        let clientID: String
        /// Everything granted: the session's scopes, which later refreshes may ask any part of.
        let scopes: [String]
        /// The audience's URI when it is not TIL's API.
        let audience: String?
        let withRefreshToken: Bool
        /// When the user signed in, for the ID tokens of the grant's refreshes (OpenID Connect).
        var authTime: Date? = nil
    }

    func start(_ grant: Grant, on runner: any PostgresQueryable) async throws -> OAuthTokenAnswer {
        let issue = Issue(withRefreshToken: grant.withRefreshToken)
        let rows = try await runner.query("""
            WITH \(storing(issue, grant))
            SELECT \(Issue.answerColumns) FROM session
            """)
        guard let row = rows.first else { throw PostgresError(.server, message: "an INSERT ... RETURNING returned no row") }
        return try issue.answer(row)
    }

    /// The tokens of a session about to start: every value is drawn before the statement, so
    /// the answer can name them. A refresh token only when the grant gives one: nothing is
    /// drawn, hashed or stored for an absent one (`client_credentials`, issue 18's benchmark).
    struct Issue: Sendable {
        let sessionID = SecureRandom.uuid()
        let accessID = SecureRandom.uuid()
        let access = SecureRandom.token()
        /// The refresh token's id and value, nil when the grant gives none.
        let refresh: (id: UUID, token: String)?

        init(withRefreshToken: Bool) {
            refresh = withRefreshToken ? (SecureRandom.uuid(), SecureRandom.token()) : nil
        }

        /// What a statement built by `storing` selects from `session` for `answer`.
        static let answerColumns: PostgresQuery = "extract(epoch FROM session.expires_at - now())::float8 AS expires_in, session.scopes"

        /// The answer from a row holding `answerColumns`: the scope is what the session stored.
        func answer(_ row: PostgresRow) throws -> OAuthTokenAnswer {
            let expiresIn = try row.decode(column: "expires_in", as: Double.self)
            return OAuthTokenAnswer(
                accessToken: access, expiresIn: max(0, Int(expiresIn.rounded(.down))), scope: try row.decode(column: "scopes"),
                refreshToken: refresh?.token, sessionID: sessionID)
        }
    }

    /// The CTEs `session`, `access` and (when `issue` has a refresh token) `refresh` that store
    /// `issue` for `grant`, for a caller
    /// that adds its own reads or writes to the same statement. The session's scopes are the
    /// SQL `scopes` (nil: the grant's), and its row is inserted once per row of `source` (a
    /// `FROM …` clause; empty: once). A `source` without rows stores nothing.
    func storing(_ issue: Issue, _ grant: Grant, scopes: PostgresQuery? = nil, for source: PostgresQuery = "") -> PostgresQuery {
        let scopes = scopes ?? "\(grant.scopes.joined(separator: " "))"
        let lifetime = settings.sessionMaxLifetime.seconds
        // Without a refresh token the session ends with its access token.
        let sessionTTL = grant.withRefreshToken ? settings.refreshTokenTTL : settings.tokenTTL
        let stored: PostgresQuery = """
            session AS (
                INSERT INTO sessions (id, user_id, scopes, expires_at, refresh_expires_at, kind, client_id, audience, auth_time)
                SELECT \(issue.sessionID), \(grant.userID), \(scopes),
                       least(date_trunc('second', now() + \(settings.tokenTTL.seconds) * interval '1 second'),
                             date_trunc('second', now() + \(lifetime) * interval '1 second')),
                       least(date_trunc('second', now() + \(sessionTTL.seconds) * interval '1 second'),
                             date_trunc('second', now() + \(lifetime) * interval '1 second')),
                       'oauth', \(grant.clientID), \(grant.audience), \(grant.authTime)::timestamptz
                \(source)
                RETURNING expires_at, refresh_expires_at, scopes
            ), access AS (
                INSERT INTO tokens (id, digest, user_id, session_id, expires_at)
                SELECT \(issue.accessID), \(SHA256.hex(of: issue.access)), \(grant.userID), \(issue.sessionID), expires_at FROM session
            )
            """
        // Without a refresh token, no CTE at all: PostgreSQL would still open, lock and
        // prepare refresh_tokens and its indexes for an INSERT of no row.
        guard let refresh = issue.refresh else { return stored }
        return """
            \(stored), refresh AS (
                INSERT INTO refresh_tokens (id, digest, session_id, parent_id, access_token_id, expires_at)
                SELECT \(refresh.id), \(SHA256.hex(of: refresh.token)), \(issue.sessionID), NULL, \(issue.accessID), refresh_expires_at
                FROM session
            )
            """
    }
}
