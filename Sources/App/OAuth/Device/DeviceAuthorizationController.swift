import Web

/// The device authorization endpoint (RFC 8628 §3.1, §3.2): `POST /oauth/device_authorization`,
/// form-encoded. The client authenticates as at the token endpoint (a public client by its
/// `client_id`, a confidential one with its secret), must be registered for the device grant,
/// and asks for scopes under the authorization endpoint's rules. The answer names the codes
/// and where the user types the short one. A public client's codes are limited per address.
struct DeviceAuthorizationController: RouteCollection {
    let clients: ClientAuthenticator
    let codes: DeviceCodeRepository
    let catalog: OAuthScopeCatalog
    let issuer: ServedIssuer

    /// RFC 8628 §3.2's default, and TIL's: at most one poll every five seconds.
    static let interval = 5
    /// Device codes one address may start per hour for public clients (anyone can be one):
    /// enough for a room of people running `til login --web`, not for filling the table.
    static let publicLimitPerHour = 60
    /// The verification page, below the issuer.
    static let verificationPath = "/device"

    func boot(routes: any RoutesBuilder) throws {
        routes.oauthEndpoints().post("device_authorization", use: authorize)
    }

    func authorize(_ request: Request) async throws -> Response {
        let form = try TokenController.form(of: request)
        let client = try await clients.authenticate(request, form: form)
        guard client.grantTypes.contains(.deviceCode) else {
            throw OAuthError.unauthorizedClient("This client is not registered for the device authorization grant.")
        }
        let scopes: [String]
        do {
            scopes = try AuthorizationRequest.scopes(AuthorizationParameters(form.pairs), client: client, catalog: catalog)
        } catch {
            throw OAuthError.invalidScope(error.description)
        }
        let address = client.isPublic ? request.clientAddress : nil
        guard let started = try await codes.start(client: client, scopes: scopes, from: address, limit: Self.publicLimitPerHour) else {
            throw OAuthError.throttled("device codes from this address", retryAfter: 3600)
        }
        let shown = UserCode.display(started.userCode)
        let verification = issuer.current.endpoint(Self.verificationPath)
        let answer = DeviceAuthorization(
            deviceCode: started.deviceCode, userCode: shown, verificationURI: verification,
            verificationURIComplete: QueryEncoding.appending([(name: "user_code", value: shown)], to: verification),
            expiresIn: Int(codes.lifetime.seconds), interval: Self.interval)
        return try ContentResponse(answer, status: .ok).encodeResponse(for: request).notStored()
    }
}
