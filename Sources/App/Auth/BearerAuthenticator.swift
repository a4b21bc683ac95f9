import Web

/// Logs in the user whose access token is in `Authorization: Bearer <token>`.
///
/// No bearer credential: the request passes on anonymous (`Authenticator`), and `ScopeGuard`
/// decides. A bearer credential that is malformed, unknown, expired or revoked is refused here
/// with 401 `invalid_token`, so the client learns to refresh rather than to log in again blindly.
struct BearerAuthenticator: Authenticator {
    let tokens: TokenRepository

    func credential(from request: Request) throws -> String? {
        request.headers.bearerCredential
    }

    func authenticate(_ token: String, for request: inout Request) async throws {
        guard !token.isEmpty, token.utf8.count <= BearerAuthorization.maxTokenBytes else {
            throw BearerChallenge.invalidToken("The access token is malformed.")
        }
        switch try await tokens.authenticate(token) {
        case .valid(let identity):
            request.auth.login(identity.user)
            request.auth.login(identity)
        case .expired:
            throw BearerChallenge.invalidToken("The access token expired.")
        case .revoked, .unknown:
            throw BearerChallenge.invalidToken("The access token is unknown or revoked.")
        }
    }
}
