import Web

/// Logs in the user whose access token is in `Authorization: Bearer <token>`.
///
/// No bearer credential: the request passes on anonymous (`Authenticator`), and `ScopeGuard`
/// decides. A bearer credential that is malformed, unknown, expired or revoked is refused here
/// with 401 `invalid_token`, so the client learns to refresh rather than to log in again blindly.
struct BearerAuthenticator: Authenticator {
    let tokens: TokenRepository

    func credential(from request: Request) throws -> BearerToken? {
        guard let sent = request.headers.bearerCredential else { return nil }
        guard let token = BearerToken(sent) else { throw BearerChallenge.malformedToken }
        return token
    }

    func authenticate(_ token: BearerToken, for request: inout Request) async throws {
        let check = try await tokens.authenticate(token.value, from: request.clientAddress)
        if case .clientOnly(let client) = check {
            request.auth.login(client)  // no user: `ScopeGuard` refuses it with 403
            return
        }
        if let refusal = BearerChallenge.refusal(of: check, needing: nil) { throw refusal }
        guard case .valid(let identity) = check else { return }
        request.auth.login(identity.user)
        request.auth.login(identity)
    }
}
