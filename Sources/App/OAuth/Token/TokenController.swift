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
    /// RFC 8628 §3.4: a device's polls.
    let devices: DeviceCodeGrant
    let idTokens: IDTokenMinter

    func boot(routes: any RoutesBuilder) throws {
        routes.oauthEndpoints().post("token", use: token)
    }

    func token(_ request: Request) async throws -> Response {
        let form = try Self.form(of: request)
        guard let grantName = form["grant_type"] else { throw OAuthError.invalidRequest("'grant_type' is missing.") }
        guard let grant = OAuthClient.GrantType(rawValue: grantName) else {
            throw OAuthError.unsupportedGrantType(
                "TIL supports authorization_code, refresh_token, client_credentials and \(OAuthClient.GrantType.deviceCode.rawValue).")
        }
        let answer: OAuthTokenAnswer
        switch grant {
        case .clientCredentials:
            answer = try await clientCredentials.issue(request, form: form)
        case .deviceCode:
            let client = try await clients.authenticate(request, form: form)
            guard client.grantTypes.contains(.deviceCode) else {
                throw OAuthError.unauthorizedClient("This client is not registered for the device authorization grant.")
            }
            answer = try await devices.redeem(form: form, client: client)
        case .authorizationCode, .refreshToken:
            let client = try await clients.authenticate(request, form: form)
            // A refresh token of `offline_access` is checked against its grant (`refresh`).
            guard client.grantTypes.contains(grant) || grant == .refreshToken else {
                throw OAuthError.unauthorizedClient("This client is not registered for the \(grant.rawValue) grant.")
            }
            let target = try TokenTarget(resource: form["resource"], issuer: issuer.current, catalog: scopes)
            answer = grant == .authorizationCode
                ? try await codes.redeem(form: form, client: client, target: target)
                : try await refresh(client, form: form, target: target)
        }
        return try answer.response(for: request)
    }

    /// RFC 6749 §4.4: the client's checks and its token are one statement.
    private var clientCredentials: ClientCredentialsGrant {
        ClientCredentialsGrant(clients: clients, tokens: tokens, db: rotation.db, issuer: issuer, scopes: scopes)
    }

    /// The body's fields: form-encoded, at most one value per name (RFC 6749 §3.2), and no
    /// NUL: libpq would cut a value there (`id%00x` read as `id`), as `RequestScreening` says
    /// for queries and Basic credentials. `grant_type` is only compared with the grants' names,
    /// and §5.2 answers any other value `unsupported_grant_type`, NUL or not.
    static func form(of request: Request) throws(OAuthError) -> QueryParameters {
        guard let form = request.form else {
            throw .invalidRequest("Send the parameters as application/x-www-form-urlencoded.")
        }
        if form.pairs.contains(where: { $0.name != "grant_type" && ($0.name.utf8.contains(0) || $0.value.utf8.contains(0)) }) {
            throw .invalidRequest("A parameter must not contain NUL.")
        }
        var seen = Set<String>()
        for pair in form.pairs where !seen.insert(pair.name).inserted {
            throw .invalidRequest("'\(pair.name.prefix(64))' is repeated.")
        }
        return form
    }
}
