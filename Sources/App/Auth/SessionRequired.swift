import TILWire
import Web

/// Refuses a personal access token on a route that needs a login: managing tokens, sessions,
/// the password, the email or second factors. A personal access token is a credential for
/// scripts, handed to CI and copied into config files; if it could mint more tokens, end the
/// owner's logins or change the password, one leak would be the whole account. So these routes
/// answer it 403 "needs a login, not a personal access token", whatever its scopes (none of them
/// can hold `account`, but the answer should say what is missing, not name a scope).
///
/// The one place this rule lives: routes join it through `BearerAuth.sessionGuarded`, after
/// the bearer authenticator and before the scope guard.
struct SessionRequired: Middleware {
    func respond(to request: Request, chainingTo next: any Responder) async throws -> Response {
        if request.auth.get(BearerIdentity.self)?.isPersonalAccessToken == true { throw Self.refusal }
        return try await next.respond(to: request)
    }

    /// 403 `{"error":true,"reason":"needs a login, not a personal access token"}`.
    static let refusal = Abort(.forbidden, reason: PersonalAccessToken.needsLoginReason)
}
