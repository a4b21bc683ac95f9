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
    }

    func start(_ grant: Grant, on runner: any PostgresQueryable) async throws -> OAuthTokenAnswer {
        let (sessionID, accessID, refreshID) = (SecureRandom.uuid(), SecureRandom.uuid(), SecureRandom.uuid())
        let (access, refresh) = (SecureRandom.token(), SecureRandom.token())
        let lifetime = settings.sessionMaxLifetime.seconds
        // Without a refresh token the session ends with its access token.
        let sessionTTL = grant.withRefreshToken ? settings.refreshTokenTTL : settings.tokenTTL
        let rows = try await runner.query("""
            WITH session AS (
                INSERT INTO sessions (id, user_id, scopes, expires_at, refresh_expires_at, kind, client_id, audience)
                VALUES (\(sessionID), \(grant.userID), \(grant.scopes.joined(separator: " ")),
                        least(date_trunc('second', now() + \(settings.tokenTTL.seconds) * interval '1 second'),
                              date_trunc('second', now() + \(lifetime) * interval '1 second')),
                        least(date_trunc('second', now() + \(sessionTTL.seconds) * interval '1 second'),
                              date_trunc('second', now() + \(lifetime) * interval '1 second')),
                        'oauth', \(grant.clientID), \(grant.audience))
                RETURNING expires_at, refresh_expires_at
            ), access AS (
                INSERT INTO tokens (id, digest, user_id, session_id, expires_at)
                SELECT \(accessID), \(SHA256.hex(of: access)), \(grant.userID), \(sessionID), expires_at FROM session
            ), refresh AS (
                INSERT INTO refresh_tokens (id, digest, session_id, parent_id, access_token_id, expires_at)
                SELECT \(refreshID), \(SHA256.hex(of: refresh)), \(sessionID), NULL, \(accessID), refresh_expires_at
                FROM session WHERE \(grant.withRefreshToken)
            )
            SELECT extract(epoch FROM expires_at - now())::float8 AS expires_in FROM session
            """)
        let expiresIn = try rows.first?.decode(column: "expires_in", as: Double.self) ?? settings.tokenTTL.seconds
        return OAuthTokenAnswer(
            accessToken: access, expiresIn: max(0, Int(expiresIn.rounded(.down))), scope: grant.scopes.joined(separator: " "),
            refreshToken: grant.withRefreshToken ? refresh : nil, sessionID: sessionID)
    }
}
