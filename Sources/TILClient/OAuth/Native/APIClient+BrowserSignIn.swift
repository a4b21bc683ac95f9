public import Foundation

/// Signing in through a browser, as a native app does (RFC 8252): the app opens
/// `BrowserSignIn.url` (ASWebAuthenticationSession on Apple platforms, the system browser with
/// a loopback listener elsewhere), the person signs in and consents on the server's own pages,
/// and the browser is sent back to the redirect URI with a code, which only this client can
/// exchange (PKCE). No password passes through the app.
///
/// ```swift
/// let signIn = try await til.beginBrowserSignIn(redirectURI: URL(string: "http://127.0.0.1:\(port)/callback")!)
/// open(signIn.url)                                 // the browser, however the platform does it
/// let callback = try await listener.nextCallback() // the URL the browser was sent back to
/// let signedIn = try await til.finishBrowserSignIn(signIn, callback: callback)
/// ```
extension APIClient {
    /// Reads the server's metadata (RFC 8414) and makes the sign-in: a fresh PKCE verifier,
    /// `state` and `nonce`, and the authorization URL. `scopes` nil asks for every scope the
    /// client is registered for; add `openid` for an `id_token`.
    public func beginBrowserSignIn(
        redirectURI: URL, scopes: Set<Scope>? = nil, clientID: String = cliClientID
    ) async throws -> BrowserSignIn {
        let metadata = try await send(APIRequest("GET", AuthorizationServerMetadata.path), as: AuthorizationServerMetadata.self)
        try metadata.check(for: Self.key(server))
        return try BrowserSignIn(metadata: metadata, redirectURI: redirectURI, clientID: clientID, scopes: scopes.map(ScopeSet.init))
    }

    /// Completes `signIn` with the URL the browser was sent back to: checks it
    /// (`AuthorizationResponse`), exchanges the code with the PKCE verifier, validates the
    /// `id_token` when there is one (`IDToken`), and keeps the pair in the store like a
    /// password login's — from then on its tokens refresh at the token endpoint as `clientID`,
    /// and `accessToken(scopes:)` narrows them. Throws `TILError.signInFailed` for an answer
    /// that is not this sign-in's, or the server's refusal (`access_denied`, ...).
    @discardableResult
    public func finishBrowserSignIn(_ signIn: BrowserSignIn, callback: URL) async throws -> SignedIn {
        let code = try AuthorizationResponse.code(in: callback, for: signIn)
        let response = try await pipeline.send(OAuthTokens.request([
            (name: "grant_type", value: "authorization_code"), (name: "code", value: code),
            (name: "redirect_uri", value: signIn.redirectURI.absoluteString), (name: "client_id", value: signIn.clientID),
            (name: "code_verifier", value: signIn.proofKey.verifier),
        ]))
        let answer = try OAuthTokens.answer(response)
        let idToken = try answer.idToken.map {
            try IDToken(validating: $0, issuer: signIn.issuer, clientID: signIn.clientID, nonce: signIn.nonce)
        }
        if signIn.asksForOpenID, idToken == nil {
            throw TILError.signInFailed(error: "invalid_id_token", reason: "The server granted no id_token to a sign-in that asked for openid.")
        }
        let kept = try await keepOAuthLogin(answer, response: response, clientID: signIn.clientID, signIn: .browser)
        return SignedIn(token: kept.token, username: kept.username, idToken: idToken)
    }
}
