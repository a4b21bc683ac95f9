import Web

/// Lets a request through only with a caller (`TokenAuthenticator`) whose token carries
/// `scope`: 401 without a token, 403 `insufficient_scope` naming the scope without it.
struct ScopeRequirement: AccessGuard {
    let scope: String
    let challenge: BearerChallenge

    var access: RouteAccess { .authenticated(scheme: "bearer", scopes: [scope]) }

    func respond(to request: Request, chainingTo next: any Responder) async throws -> Response {
        guard let caller = request.auth.get(NotesCaller.self) else { throw challenge.missingToken }
        guard caller.scopes.contains(Substring(scope)) else { throw challenge.insufficientScope(scope) }
        return try await next.respond(to: request)
    }
}
