import Crypt
import Foundation
import Postgres
import Web

/// Redeems an authorization code (RFC 6749 §4.1.3, RFC 7636 §4.6) from `oauth_codes`, as the
/// authorization pages wrote it: single use by one atomic `UPDATE … WHERE redeemed_at IS NULL`
/// in the transaction that issues the tokens, so of two concurrent redemptions exactly one
/// wins. A spent code presented again revokes the session its redemption started (§4.1.2).
/// Every other mismatch (another client's code, an expired one, a wrong `redirect_uri` or
/// PKCE verifier) is `invalid_grant` and burns the code: it cannot be retried with guesses.
struct CodeRedemption: Sendable {
    let db: PostgresClient
    let issuer: OAuthTokenIssuer
    /// With `openid` granted, the answer carries an ID token (OpenID Connect Core §3.1.3.3).
    let idTokens: IDTokenMinter
    let servedIssuer: ServedIssuer

    func redeem(form: QueryParameters, client: OAuthClient, target: TokenTarget) async throws -> OAuthTokenAnswer {
        guard let code = form["code"], !code.isEmpty else { throw OAuthError.invalidRequest("'code' is missing.") }
        guard let verifier = form["code_verifier"] else { throw OAuthError.invalidRequest("'code_verifier' is missing (PKCE is required).") }
        guard code.utf8.count <= 256 else { throw OAuthError.invalidGrant("The authorization code is unknown, expired or spent.") }
        let digest = SHA256.hex(of: code)
        let issuer = issuer
        // A refusal commits too: the code stays spent, so a verifier cannot be guessed at.
        let outcome = try await db.withTransaction { tx -> Result<(OAuthTokenAnswer, StoredCode), OAuthError>? in
            let rows = try await tx.query("""
                UPDATE oauth_codes SET redeemed_at = now() WHERE digest = \(digest) AND redeemed_at IS NULL
                RETURNING client_id, user_id, redirect_uri, redirect_uri_sent, code_challenge, scopes, resources,
                          expires_at > now() AS live, auth_time, nonce, \(UserProfile.columns(ofUserIn: "oauth_codes.user_id"))
                """)
            guard let row = rows.first else { return nil }
            let stored = try StoredCode(row)
            do throws(OAuthError) {
                try stored.check(client: client, redirectURI: form["redirect_uri"], verifier: verifier, target: target)
            } catch {
                return .failure(error)
            }
            let grant = OAuthTokenIssuer.Grant(
                userID: stored.userID, clientID: client.id, scopes: stored.scopes(for: target), audience: target.audience,
                withRefreshToken: client.refreshes(stored.scopes),
                authTime: stored.authTime)
            // The code is linked to the session in the statement that starts it.
            let issue = OAuthTokenIssuer.Issue(withRefreshToken: grant.withRefreshToken)
            let issued = try await tx.query("""
                WITH \(issuer.storing(issue, grant)), linked AS (
                    UPDATE oauth_codes SET session_id = \(issue.sessionID) WHERE digest = \(digest)
                )
                SELECT \(OAuthTokenIssuer.Issue.answerColumns) FROM session
                """)
            guard let row = issued.first else { throw PostgresError(.server, message: "an INSERT ... RETURNING returned no row") }
            let answer = try issue.answer(row)
            return .success((answer, stored))
        }
        if let outcome {
            var (answer, stored) = try outcome.get()
            // Signed once the code is spent: of two redemptions, only the winner gets here.
            if stored.scopes.contains(OpenIDScope.openid.rawValue) {
                answer.idToken = try await idTokens.mint(
                    .init(userID: stored.userID, authTime: stored.authTime, nonce: stored.nonce, profile: stored.profile), client: client,
                    scopes: stored.scopes, accessToken: answer.accessToken, issuer: servedIssuer.current)
            }
            return answer
        }
        // Unknown, or spent before: then whatever its redemption issued is revoked.
        try await db.execute("""
            UPDATE sessions SET revoked_at = now()
            WHERE id = (SELECT session_id FROM oauth_codes WHERE digest = \(digest)) AND revoked_at IS NULL
            """)
        throw OAuthError.invalidGrant("The authorization code is unknown, expired or spent.")
    }
}

/// An `oauth_codes` row just spent, and the checks the token request must pass.
private struct StoredCode: Sendable {
    let clientID: String
    let userID: UUID
    let redirectURI: String
    let redirectURISent: Bool
    let challenge: String
    let scopes: [String]
    let resources: [String]
    let live: Bool
    let authTime: Date
    let nonce: String?
    /// For the ID token's `profile` claims.
    let profile: UserProfile?

    init(_ row: PostgresRow) throws {
        clientID = try row.decode(column: "client_id")
        userID = try row.decode(column: "user_id")
        redirectURI = try row.decode(column: "redirect_uri")
        redirectURISent = try row.decode(column: "redirect_uri_sent")
        challenge = try row.decode(column: "code_challenge")
        scopes = try row.decode(column: "scopes", as: String.self).split(separator: " ").map(String.init)
        resources = try row.decode(column: "resources", as: String.self).split(separator: " ").map(String.init)
        live = try row.decode(column: "live")
        authTime = try row.decode(column: "auth_time")
        nonce = try row.decode(column: "nonce", as: String?.self)
        profile = try UserProfile(row)
    }

    /// Throws `invalid_grant` (or `invalid_target`) unless the token request matches the code.
    func check(client: OAuthClient, redirectURI sent: String?, verifier: String, target: TokenTarget) throws(OAuthError) {
        guard ConstantTime.equals(clientID, client.id) else { throw .invalidGrant("The authorization code was issued to another client.") }
        guard live else { throw .invalidGrant("The authorization code expired.") }
        if redirectURISent || sent != nil {
            guard sent == redirectURI else { throw .invalidGrant("'redirect_uri' differs from the authorization request's.") }
        }
        guard PKCE.verifies(verifier, challenge: challenge) else { throw .invalidGrant("The PKCE code_verifier does not match the challenge.") }
        if let audience = target.audience, !resources.contains(audience) {
            throw .invalidTarget("The authorization request did not ask for '\(audience.prefix(128))'.")
        }
        if target.audience == nil, !resources.isEmpty, scopes(for: target).isEmpty {
            throw .invalidTarget("Name one of the resources the authorization request asked for.")
        }
    }

    /// The granted scopes the target's audience defines.
    func scopes(for target: TokenTarget) -> [String] {
        scopes.filter(target.scopes.contains)
    }
}
