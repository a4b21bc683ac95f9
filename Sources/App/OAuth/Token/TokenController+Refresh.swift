import Crypt
import Foundation
import Postgres
import Web

extension TokenController {
    /// RFC 6749 §6 through the rotation and reuse detection of `POST /api/users/refresh`
    /// (`RefreshRotation`), at this client's door only: a Basic login's refresh token, or
    /// another client's, is unknown here. `scope` may narrow the new access token, never widen
    /// it; the new refresh token keeps the whole grant, so a later refresh may ask for any part.
    func refresh(_ client: OAuthClient, form: QueryParameters, target: TokenTarget) async throws -> OAuthTokenAnswer {
        guard let value = form["refresh_token"], !value.isEmpty else { throw OAuthError.invalidRequest("'refresh_token' is missing.") }
        guard let token = BearerToken(value) else { throw OAuthError.invalidGrant("The refresh token is malformed.") }
        let grant = try await session(of: token.value, client: client)
        guard client.refreshes(grant.scopes) else {
            throw OAuthError.unauthorizedClient("This client is not registered for the refresh_token grant.")
        }
        guard grant.audience == target.audience else {
            throw OAuthError.invalidTarget("A refresh keeps the audience of its grant; 'resource' names another.")
        }
        let narrowed = try TokenTarget.requested(form["scope"]).map { names throws(OAuthError) in try TokenTarget.within(grant.scopes, names) }
        switch try await rotation.redeem(token.value, at: .oauth(clientID: client.id)) {
        case .issued(let pair):
            let scopes = narrowed ?? grant.scopes
            if narrowed != nil {
                try await rotation.db.execute(
                    "UPDATE tokens SET scopes = \(scopes.joined(separator: " ")) WHERE digest = \(SHA256.hex(of: pair.value))")
            }
            var answer = OAuthTokenAnswer(
                accessToken: pair.value, expiresIn: max(0, Int(pair.expiresAt.timeIntervalSinceNow.rounded(.down))),
                scope: scopes.joined(separator: " "), refreshToken: pair.refreshToken, sessionID: pair.id)
            // OpenID Connect Core §12.2: the same sign-in, a new ID token.
            if scopes.contains(OpenIDScope.openid.rawValue), let userID = grant.userID, let authTime = grant.authTime {
                answer.idToken = try await idTokens.mint(
                    .init(userID: userID, authTime: authTime, nonce: nil, profile: grant.profile), client: client, scopes: scopes,
                    accessToken: answer.accessToken, issuer: issuer.current)
            }
            return answer
        case .reuseDetected:
            throw OAuthError.invalidGrant("The refresh token was already used; the grant has been revoked.")
        case .rateLimited(let seconds):
            throw OAuthError.throttled("refreshes", retryAfter: seconds)
        case .rejected(let reason):
            throw OAuthError.invalidGrant(reason)
        }
    }

    /// The grant behind a refresh token this client holds: its scopes, audience, user, sign-in
    /// time and the user's profile; `invalid_grant` for any other token, spending nothing.
    private func session(of value: String, client: OAuthClient) async throws -> RefreshedGrant {
        let rows = try await rotation.db.query("""
            SELECT s.scopes, s.audience, s.user_id, s.auth_time, \(UserProfile.columns(ofUserIn: "s.user_id"))
            FROM refresh_tokens r JOIN sessions s ON s.id = r.session_id
            WHERE r.digest = \(SHA256.hex(of: value)) AND \(RefreshRotation.Door.oauth(clientID: client.id).condition)
            """)
        guard let row = rows.first else { throw OAuthError.invalidGrant("The refresh token is unknown.") }
        return RefreshedGrant(
            scopes: try row.decode(column: "scopes", as: String.self).split(separator: " ").map(String.init),
            audience: try row.decode(column: "audience", as: String?.self), userID: try row.decode(column: "user_id", as: UUID?.self),
            authTime: try row.decode(column: "auth_time", as: Date?.self), profile: try UserProfile(row))
    }

    private struct RefreshedGrant {
        let scopes: [String]
        let audience: String?
        let userID: UUID?
        let authTime: Date?
        let profile: UserProfile?
    }
}
