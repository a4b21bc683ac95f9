import Web

/// An authorization request whose client and redirect URI are proven (`AuthorizationClient`)
/// and whose other parameters are valid: from here on, every error goes back to the client as
/// a redirect (`AuthorizationError`).
struct AuthorizationRequest: Sendable {
    let target: AuthorizationClient
    /// Echoed verbatim in every answer; nil when absent (or unusable: sent twice, too long).
    let state: String?
    /// Canonical order, without duplicates.
    let scopes: [String]
    /// RFC 8707 `resource` values; empty means TIL's own API.
    let resources: [String]
    let codeChallenge: String
    /// `nonce`, `max_age` and `prompt` (OpenID Connect).
    let openID: OpenIDAuthorization
    let parameters: AuthorizationParameters

    var client: OAuthClient { target.client }
    var prompts: Set<Prompt> { openID.prompts }

    enum Prompt: String, Sendable {
        /// `none`: answer without any page, or fail (`login_required`, `consent_required`).
        case silent = "none"
        case login, consent
    }

    static let maxStateBytes = 1024
    static let maxScopeBytes = 2048

    /// Scopes a client that is not first-party never gets: with them a third party could change
    /// the password or mint tokens of its own.
    static let firstPartyOnly: Set<String> = [Scope.account.rawValue, Scope.clientsWrite.rawValue]

    /// The state to echo in an error, even when the rest is invalid (RFC 6749 §4.1.2.1).
    static func state(of parameters: AuthorizationParameters) -> String? {
        guard let state = parameters.single("state").value, state.utf8.count <= maxStateBytes else { return nil }
        return state
    }

    /// Checks every parameter but the client's (already proven), in RFC 6749's order.
    init(
        _ parameters: AuthorizationParameters, target: AuthorizationClient, catalog: OAuthScopeCatalog, issuer: Issuer
    ) throws(AuthorizationError) {
        self.parameters = parameters
        self.target = target
        state = Self.state(of: parameters)
        guard parameters.pairs.count <= AuthorizationParameters.maxCount else { throw .invalidRequest("Too many parameters.") }
        switch parameters.single("state") {
        case .duplicated: throw .invalidRequest("state was sent more than once.")
        case .value(let value) where value.utf8.count > Self.maxStateBytes: throw .invalidRequest("state is longer than 1024 bytes.")
        default: break
        }
        try OpenIDAuthorization.refuseRequestObjects(parameters)
        switch parameters.single("response_type") {
        case .absent: throw .invalidRequest("response_type is missing.")
        case .duplicated: throw .invalidRequest("response_type was sent more than once.")
        case .value(let type) where type != "code": throw .unsupportedResponseType("Only response_type=code is supported.")
        case .value: break
        }
        guard target.client.grantTypes.contains(.authorizationCode) else {
            throw .unauthorizedClient("The application is not registered for the authorization_code grant.")
        }
        guard case .value(let challenge) = parameters.single("code_challenge") else {
            throw .invalidRequest("code_challenge is required (PKCE with S256), once.")
        }
        guard case .value("S256") = parameters.single("code_challenge_method") else {
            throw .invalidRequest("code_challenge_method must be S256 (plain is not accepted).")
        }
        guard PKCE.isChallenge(challenge) else {
            throw .invalidRequest("code_challenge must be the 43-character base64url SHA-256 of the verifier.")
        }
        codeChallenge = challenge
        let scopes = try Self.scopes(parameters, client: target.client, catalog: catalog)
        self.scopes = scopes
        resources = try Self.resources(parameters, catalog: catalog, issuer: issuer)
        openID = try OpenIDAuthorization(parameters, scopes: scopes, client: target.client)
    }

    /// The scopes asked for (or, without `scope`, all the client registered that it may get),
    /// each known, registered by the client, and first-party-only ones only for trusted clients.
    /// The device authorization endpoint checks its `scope` with the same rules.
    static func scopes(
        _ parameters: AuthorizationParameters, client: OAuthClient, catalog: OAuthScopeCatalog
    ) throws(AuthorizationError) -> [String] {
        let names: [String]
        switch parameters.single("scope") {
        case .duplicated: throw .invalidScope("scope was sent more than once.")
        case .value(let text) where text.utf8.count > maxScopeBytes: throw .invalidScope("scope is too long.")
        case .value(let text): names = text.split(separator: " ").map(String.init)
        // OpenID Connect's scopes only when named: `openid` makes it another kind of request.
        case .absent: names = client.scope.filter { (client.trusted || !firstPartyOnly.contains($0)) && OpenIDScope(rawValue: $0) == nil }
        }
        guard !names.isEmpty else { throw .invalidScope("No scope was asked for.") }
        for name in names {
            guard OAuthScopeCatalog.isScopeToken(name), catalog.isKnown(name) else { throw .invalidScope("Unknown scope '\(name.prefix(64))'.") }
            guard client.scope.contains(name) else { throw .invalidScope("The application may not ask for '\(name)'.") }
            guard client.trusted || !firstPartyOnly.contains(name) else {
                throw .invalidScope("'\(name)' is never granted to a third-party application.")
            }
        }
        let order = catalog.allScopes
        return Array(Set(names)).sorted { (order.firstIndex(of: $0) ?? .max, $0) < (order.firstIndex(of: $1) ?? .max, $1) }
    }

    /// RFC 8707 `resource` values: TIL's API or a configured resource, by exact string.
    private static func resources(
        _ parameters: AuthorizationParameters, catalog: OAuthScopeCatalog, issuer: Issuer
    ) throws(AuthorizationError) -> [String] {
        let values = parameters.all("resource")
        guard values.count <= AuthorizationParameters.maxResources else { throw .invalidTarget("Too many resource values.") }
        var seen: [String] = []
        for value in values where !seen.contains(value) {
            guard value == issuer.apiResource || catalog.resource(named: value) != nil else {
                throw .invalidTarget("Unknown resource '\(value.prefix(128))'.")
            }
            seen.append(value)
        }
        return seen
    }

    /// The error redirect for this request.
    func redirect(_ error: AuthorizationError, issuer: Issuer) -> String {
        Self.redirect(error, to: target, state: state, issuer: issuer)
    }

    static func redirect(_ error: AuthorizationError, to target: AuthorizationClient, state: String?, issuer: Issuer) -> String {
        target.redirect([(name: "error", value: error.code), (name: "error_description", value: error.description)], state: state, issuer: issuer)
    }
}
