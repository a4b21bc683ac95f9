import Web

/// Logs in the user whose token is in `Authorization: Bearer <token>`. A missing or unknown
/// token leaves the request anonymous; `User.guardMiddleware` then answers 401.
struct BearerAuthenticator: Middleware {
    let tokens: TokenRepository

    func respond(to request: Request, chainingTo next: any Responder) async throws -> Response {
        guard let bearer = request.headers.bearerAuthorization else {
            return try await next.respond(to: request)
        }
        var request = request
        if let user = try await tokens.user(forToken: bearer.token) {
            request.auth.login(user)
        }
        return try await next.respond(to: request)
    }
}

extension User {
    /// 401 with `WWW-Authenticate: Bearer` unless a bearer token logged a user in.
    static func bearerGuard() -> some Middleware {
        guardMiddleware(reason: "A valid bearer token is required.", challenge: "Bearer")
    }
}
