/// A type a request can be authenticated as (a user, an API client...): what an
/// `Authenticator` logs in on `request.auth`, and what `request.auth.require(_:)` hands back.
public protocol Authenticatable: Sendable {}
