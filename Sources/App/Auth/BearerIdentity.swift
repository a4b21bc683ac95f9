import Foundation
import Web

/// Who a valid bearer token says the caller is: the user, the login (session) the token
/// belongs to, and what the token may do. Logged in beside the `User` itself, so handlers that
/// only need the user keep writing `request.auth.require(User.self)`.
struct BearerIdentity: Authenticatable {
    let user: User
    let sessionID: UUID
    let scopes: [Scope]
}
