import Web

/// `POST /oauth/token` (RFC 6749 §3.2): form-encoded only, one value per parameter, the client
/// authenticated as it registered, then one of its registered grants. `password` and
/// `implicit` do not exist.
struct TokenController: RouteCollection {
    let clients: ClientAuthenticator
    let issuer: ServedIssuer
    let scopes: OAuthScopeCatalog
    let tokens: OAuthTokenIssuer
    let codes: CodeRedemption
    let rotation: RefreshRotation

    func boot(routes: any RoutesBuilder) throws {
        routes.oauthEndpoints().post("token", use: token)
    }

    func token(_ request: Request) async throws -> Response {
        let form = try Self.form(of: request)
        guard let grantName = form["grant_type"] else { throw OAuthError.invalidRequest("'grant_type' is missing.") }
        guard let grant = OAuthClient.GrantType(rawValue: grantName) else {
            throw OAuthError.unsupportedGrantType("TIL supports authorization_code, refresh_token and client_credentials.")
        }
        let client = try await clients.authenticate(request, form: form, confidentialOnly: grant == .clientCredentials)
        guard client.grantTypes.contains(grant) else {
            throw OAuthError.unauthorizedClient("This client is not registered for the \(grant.rawValue) grant.")
        }
        let target = try TokenTarget(resource: form["resource"], issuer: issuer.current, catalog: scopes)
        let answer: OAuthTokenAnswer
        switch grant {
        case .clientCredentials: answer = try await clientCredentials(client, form: form, target: target)
        case .authorizationCode: answer = try await codes.redeem(form: form, client: client, target: target)
        case .refreshToken: answer = try await refresh(client, form: form, target: target)
        }
        return try answer.response(for: request)
    }

    /// RFC 6749 §4.4: a confidential client for itself, no user and no refresh token. Only
    /// scopes that mean something without a user: `categories:write` and other resources'.
    private func clientCredentials(_ client: OAuthClient, form: QueryParameters, target: TokenTarget) async throws -> OAuthTokenAnswer {
        let userless = target.audience == nil ? [Scope.categoriesWrite.rawValue] : target.scopes
        let allowed = client.scope.filter { userless.contains($0) }
        let wanted = try TokenTarget.requested(form["scope"]).map { names throws(OAuthError) in try TokenTarget.within(allowed, names) }
        let granted = wanted ?? allowed
        guard !granted.isEmpty else { throw OAuthError.invalidScope("This client holds no scope that works without a user.") }
        return try await tokens.start(
            .init(userID: nil, clientID: client.id, scopes: granted, audience: target.audience, withRefreshToken: false), on: rotation.db)
    }

    /// The body's fields: form-encoded, at most one value per name (RFC 6749 §3.2).
    static func form(of request: Request) throws(OAuthError) -> QueryParameters {
        guard let form = request.form else {
            throw .invalidRequest("Send the parameters as application/x-www-form-urlencoded.")
        }
        var seen = Set<String>()
        for pair in form.pairs where !seen.insert(pair.name).inserted {
            throw .invalidRequest("'\(pair.name.prefix(64))' is repeated.")
        }
        return form
    }
}
