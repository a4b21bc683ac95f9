import Web

/// Lets a request through only when a bearer token authenticated it and (if `scope` is set)
/// that token carries the scope: 401 without a token, 403 `insufficient_scope` without the scope.
/// Its `access` (`Route.access`) is what the OpenAPI document's `security` must say.
struct ScopeGuard: AccessGuard {
    let scope: Scope?

    var access: RouteAccess { .authenticated(scheme: "bearer", scopes: scope.map { [$0.rawValue] } ?? []) }

    func respond(to request: Request, chainingTo next: any Responder) async throws -> Response {
        guard let identity = request.auth.get(BearerIdentity.self) else {
            throw request.auth.get(ClientIdentity.self) == nil ? BearerChallenge.missingToken : BearerChallenge.noUser
        }
        if let scope, !identity.scopes.contains(scope) { throw BearerChallenge.insufficientScope(scope) }
        return try await next.respond(to: request)
    }
}

/// Authentication defined once and handed to every controller: `auth.guarded(api, needing: .account)`
/// is the group of routes that need a valid bearer token with that scope; `auth.guardedWrite`
/// the same for routes whose write needs nothing of the caller but who they are.
struct BearerAuth: Sendable {
    let authenticator: BearerAuthenticator

    /// `routes` behind the bearer authenticator and a guard for `scope` (nil: any valid token).
    func guarded(_ routes: any RoutesBuilder, needing scope: Scope?) -> any RoutesBuilder {
        routes.grouped(authenticator, ScopeGuard(scope: scope))
    }

    /// `routes` that need a login, not a personal access token (`SessionRequired`), holding
    /// `scope`: the account's own management (tokens, sessions, password, second factors).
    func sessionGuarded(_ routes: any RoutesBuilder, needing scope: Scope?) -> any RoutesBuilder {
        routes.grouped(authenticator, SessionRequired(), ScopeGuard(scope: scope))
    }

    /// `routes` whose handlers write through `request.auth.require(Caller.self)`: the token is
    /// checked, with `scope`, in the write's own statement (`WriteGuard`).
    func guardedWrite(_ routes: any RoutesBuilder, needing scope: Scope) -> any RoutesBuilder {
        routes.grouped(WriteGuard(tokens: authenticator.tokens, scope: scope))
    }
}
