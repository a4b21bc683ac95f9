import Foundation
import Web

/// Who a valid bearer token says the caller is: the user, the login (session) the token
/// belongs to, and what the token may do. Logged in beside the `User` itself, so handlers that
/// only need the user keep writing `request.auth.require(User.self)`.
struct BearerIdentity: Authenticatable {
    let user: User
    let sessionID: UUID
    let scopes: [Scope]
    /// Every scope name the token holds, OpenID Connect's (which `Scope` does not know) too.
    let scopeNames: [String]
    /// How the session began: `login`, `browser`, `oauth`…
    var kind = "login"
    /// The OAuth client of an `oauth` session.
    var clientID: String?
    /// Seconds since the session's user last proved who they are (`sessions.auth_time`, by the
    /// database's clock); nil when no person ever did (`RecentAuthentication`).
    var secondsSinceAuthentication: Double?
    /// True for a personal access token (a `pat` session): not a login, so the routes that
    /// manage the account refuse it (`SessionRequired`).
    var isPersonalAccessToken: Bool { kind == "pat" }
}

/// Who a valid token without a user says the caller is: an OAuth client acting for itself
/// (`client_credentials`). Logged in alone: every route that needs a user refuses it with 403.
struct ClientIdentity: Authenticatable {
    let clientID: String
    let sessionID: UUID
    let scopes: [Scope]
}
