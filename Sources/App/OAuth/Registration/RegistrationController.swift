import Web

/// `POST /oauth/register` (RFC 7591): dynamic client registration. By default it needs a
/// bearer token with `clients:write` (an administrator's); with `OAUTH_REGISTRATION=open`
/// anyone may register a public client, never trusted, at most `openLimitPerHour` per address,
/// while a request with a `clients:write` token still registers by the administrator's rules.
struct RegistrationController: RouteCollection {
    let clients: ClientRepository
    let registration: ClientRegistration
    let scopes: OAuthScopeCatalog
    let auth: BearerAuth
    /// For the bearer challenges' `resource_metadata`, added before they take the OAuth shape.
    let issuer: ServedIssuer

    /// Open registrations one client address may make per hour.
    static let openLimitPerHour = 10

    func boot(routes: any RoutesBuilder) throws {
        let oauth = routes.oauthEndpoints(fallbackCode: "invalid_client_metadata").grouped(ResourceMetadataChallenge(issuer: issuer))
        switch registration {
        case .admin: auth.guarded(oauth, needing: .clientsWrite).post("register", use: register)
        case .open: oauth.grouped(auth.authenticator).post("register", use: register)
        }
    }

    func register(_ request: Request) async throws -> Response {
        let metadata = try request.content.decode(ClientMetadata.self)
        let administrator = request.auth.get(BearerIdentity.self).flatMap { $0.scopes.contains(.clientsWrite) ? $0.user.id : nil }
        let open = administrator == nil
        let draft = try ClientDraft(metadata, open: open, trusted: false, scopes: scopes)
        let registered = open
            ? try await clients.register(draft, by: nil, from: request.clientAddress, limit: Self.openLimitPerHour)
            : try await clients.register(draft, by: administrator)
        guard let registered else {
            if open { throw OAuthError.throttled("client registrations from this address", retryAfter: 3600) }
            throw BearerChallenge.insufficientScope(.clientsWrite)  // the role was revoked after the token was issued
        }
        return try ContentResponse(RegisteredClient(registered), status: .created).encodeResponse(for: request).notStored()
    }
}
