/// A middleware that turns one kind of credential into an authenticated identity.
///
/// The rule every authenticator shares is written once, here: a request without the
/// credential passes on untouched (a guard further down decides whether that is allowed); a
/// request with one is handed to `authenticate`, which logs an identity in on `request.auth`
/// or throws (for example a 401 for a token that is expired or revoked).
public protocol Authenticator: Middleware {
    associatedtype Credential: Sendable
    /// The credential in `request`, or nil when it carries none of this kind.
    func credential(from request: Request) throws -> Credential?
    /// Checks `credential` and logs the identity in on `request.auth`.
    func authenticate(_ credential: Credential, for request: inout Request) async throws
}

extension Authenticator {
    public func respond(to request: Request, chainingTo next: any Responder) async throws -> Response {
        guard let credential = try credential(from: request) else {
            return try await next.respond(to: request)
        }
        var request = request
        try await authenticate(credential, for: &request)
        return try await next.respond(to: request)
    }
}
