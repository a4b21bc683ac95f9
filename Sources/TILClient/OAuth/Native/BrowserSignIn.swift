public import Foundation

/// A sign-in in a browser under way (OAuth 2.1's authorization-code flow for native apps, RFC
/// 8252): the page to open, and what its answer must match. Made by
/// `APIClient.beginBrowserSignIn`, completed by `finishBrowserSignIn` with the URL the browser
/// was sent back to; keep it in memory only, for the one attempt.
///
/// The URL carries PKCE's S256 challenge (RFC 7636), a `state` that the answer must repeat
/// (CSRF, RFC 9700 §4.7), and a `nonce` that an OpenID Connect `id_token` must repeat (replay).
/// All three are 256 bits from the system's secure generator, new for every sign-in.
public struct BrowserSignIn: Sendable {
    /// The authorization endpoint with the request in its query: open it in a browser.
    public let url: URL
    /// Where the browser is sent back: a loopback URL with the port of a listener (RFC 8252
    /// §7.3), or an app's own scheme (§7.1).
    public let redirectURI: URL
    public let clientID: String
    /// The issuer the answer must come from (RFC 9207), as the server's metadata names it.
    public let issuer: String
    public let state: String
    public let nonce: String
    /// What was asked for; nil: every scope the client is registered for.
    public let scopes: ScopeSet?
    let proofKey: ProofKey
    /// Whether the server promised `iss` in every answer (RFC 9207 §3): then one without it is
    /// refused.
    let issuerRequired: Bool

    init(metadata: AuthorizationServerMetadata, redirectURI: URL, clientID: String, scopes: ScopeSet?) throws {
        self.redirectURI = redirectURI
        self.clientID = clientID
        self.issuer = metadata.issuer
        self.scopes = scopes
        issuerRequired = metadata.authorizationResponseIssParameterSupported ?? false
        proofKey = ProofKey()
        state = Base64URL.random(bytes: 32)
        nonce = Base64URL.random(bytes: 32)
        var query: [(name: String, value: String)] = [
            ("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI.absoluteString),
        ]
        if let scopes { query.append(("scope", scopes.description)) }
        query += [
            ("state", state), ("nonce", nonce), ("code_challenge", proofKey.challenge), ("code_challenge_method", ProofKey.method),
        ]
        let endpoint = metadata.authorizationEndpoint.absoluteString
        let encoded = query.map { "\(BaseURLStep.percentEncoded($0.name))=\(BaseURLStep.percentEncoded($0.value))" }.joined(separator: "&")
        guard let url = URL(string: endpoint + (endpoint.contains("?") ? "&" : "?") + encoded) else {
            throw TILError.invalidArgument("Cannot build an authorization URL from \(endpoint).")
        }
        self.url = url
    }

    /// Whether `openid` was asked for: then the answer must carry an `id_token`.
    var asksForOpenID: Bool { scopes?.contains(Scope(rawValue: "openid")) ?? false }
}

/// A browser sign-in that completed: its pair is kept in the client's store.
public struct SignedIn: Sendable {
    public let token: Token
    public let username: String
    /// Who signed in, as OpenID Connect says it, when `openid` was granted (validated).
    public let idToken: IDToken?
}
