/// A type a request can be authenticated as (a user, an API client...).
public protocol Authenticatable: Sendable {}

extension Authenticatable {
    /// A middleware that answers 401 unless an authenticator logged in a `Self`.
    public static func guardMiddleware(
        reason: String = "Authentication required.", challenge: String? = nil
    ) -> some Middleware {
        GuardMiddleware<Self>(reason: reason, challenge: challenge)
    }
}

/// Lets a request through only if it is authenticated as `A`.
struct GuardMiddleware<A: Authenticatable>: Middleware {
    let reason: String
    let challenge: String?

    func respond(to request: Request, chainingTo next: any Responder) async throws -> Response {
        guard request.auth.has(A.self) else {
            throw Abort(.unauthorized, reason: reason, headers: challenge.map { ["WWW-Authenticate": $0] } ?? [:])
        }
        return try await next.respond(to: request)
    }
}
