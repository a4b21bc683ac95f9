import Crypt
import Foundation
import Postgres

/// Issues authorization codes (`oauth_codes`): 256-bit random, stored only as their SHA-256
/// digest, single use (`redeemed_at`, set by the token endpoint), living `AUTH_CODE_TTL`, and
/// bound to everything the request said: the client, the redirect URI (and whether it was
/// sent), the PKCE challenge, the scopes, the resources, the user and when they signed in, and OpenID Connect's `nonce`, `max_age` and `prompt`.
struct AuthorizationCodeRepository: Sendable {
    let db: PostgresClient
    let lifetime: Duration

    /// A new code for `request`, approved by the user of `session`; the code itself, shown once.
    func issue(for request: AuthorizationRequest, session: BrowserSession) async throws -> String {
        let code = SecureRandom.token()
        try await db.execute("""
            INSERT INTO oauth_codes (
                digest, client_id, user_id, redirect_uri, redirect_uri_sent, code_challenge, scopes, resources, auth_time, expires_at,
                nonce, max_age, prompt
            ) VALUES (
                \(SHA256.hex(of: code)), \(request.client.id), \(session.user.id), \(request.target.redirectURI),
                \(request.target.redirectURISent), \(request.codeChallenge), \(request.scopes.joined(separator: " ")),
                \(request.resources.joined(separator: " ")), \(session.authTime), now() + \(lifetime.seconds) * interval '1 second',
                \(request.openID.nonce), \(request.openID.maxAge), \(request.parameters.single("prompt").value)
            )
            """)
        return code
    }
}
