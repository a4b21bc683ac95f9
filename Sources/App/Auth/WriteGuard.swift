import Web

/// The guard of `BearerAuth.guardedWrite`: a bearer token is required, but not looked up here.
/// It logs in a `Caller`, whose write checks the token in the same statement (issue 22: one
/// round trip per authenticated write, not two).
///
/// What a client sees does not change. No token, or a malformed one: the same 401s, before the
/// handler runs. A token that fails the check: the same 401 `invalid_token` or 403
/// `insufficient_scope`, from the write. And because a bad token must win over a bad request
/// (as when the authenticator answered first), a handler that fails before its write (400,
/// 404...) has its token checked then, on that error path only, and a failed check answers
/// instead. A handler that answers without a checked write has its token checked too.
struct WriteGuard: AccessGuard {
    let tokens: TokenRepository
    let scope: Scope

    var access: RouteAccess { .authenticated(scheme: "bearer", scopes: [scope.rawValue]) }

    func respond(to request: Request, chainingTo next: any Responder) async throws -> Response {
        guard let sent = request.headers.bearerCredential else { throw BearerChallenge.missingToken }
        guard let token = BearerToken(sent) else { throw BearerChallenge.malformedToken }
        let caller = Caller(token: token, scope: scope, tokens: tokens, address: request.clientAddress)
        var request = request
        request.auth.login(caller)
        let response: Response
        do {
            response = try await next.respond(to: request)
        } catch {
            try await caller.verify()
            throw error
        }
        try await caller.verify()
        return response
    }
}
