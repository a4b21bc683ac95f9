import Foundation
import JOSE

/// Issues ID tokens: the claims of one sign-in, signed by the signing keys with the algorithm
/// the client registered. For a code's redemption and for every refresh of its grant (Core
/// §12.2: the same `sub`, `aud`, `azp` and `auth_time`; a new `iat`; no `nonce`).
struct IDTokenMinter: Sendable {
    let keys: SigningKeyRing
    /// How long an ID token is valid: as long as the access token it comes with.
    let lifetime: Duration

    /// The sign-in an ID token speaks of.
    struct SignIn: Sendable {
        let userID: UUID
        let authTime: Date
        let nonce: String?
        /// The user's `profile` claims, read with the code or the refresh token.
        let profile: UserProfile?
    }

    /// An ID token for `signIn` to `client`, beside `accessToken`; the profile claims when
    /// `scopes` hold `profile`, the verified address when they hold `email` (none: neither claim).
    func mint(_ signIn: SignIn, client: OAuthClient, scopes: [String], accessToken: String, issuer: Issuer) async throws -> String {
        let now = Int(Date().timeIntervalSince1970)
        var claims = IDTokenClaims(
            iss: issuer.url, sub: signIn.userID.uuidString.lowercased(), aud: client.id, exp: now + Int(lifetime.seconds), iat: now,
            authTime: Int(signIn.authTime.timeIntervalSince1970), nonce: signIn.nonce, atHash: IDTokenClaims.atHash(of: accessToken),
            azp: client.id)
        if scopes.contains(OpenIDScope.profile.rawValue), let profile = signIn.profile {
            claims.name = profile.name
            claims.preferredUsername = profile.preferredUsername
        }
        if scopes.contains(OpenIDScope.email.rawValue), let email = signIn.profile?.email {
            claims.email = email
            claims.emailVerified = true
        }
        return try await keys.sign(claims, algorithm: client.idTokenAlgorithm)
    }
}
