import Crypt
import Web

/// Maps bcrypt's admission refusal to what a client should do: 503 with `Retry-After`, answered
/// at once and without hashing, when `LOGIN_QUEUE_LIMIT` logins already wait or a new one would
/// wait longer than `LOGIN_MAX_WAIT`. A bounded queue is what keeps a login storm from
/// growing every login's latency without end.
struct HashingErrorMiddleware: SynchronousMiddleware {
    func respond(to request: Request, chainingTo next: any Responder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch BcryptError.overloaded(let retryAfter) {
            throw Self.refusal(retryAfter: retryAfter)
        }
    }

    func respond(to request: Request, chainingTo next: ImmediateResponder) throws -> Response {
        do {
            return try next(request)
        } catch BcryptError.overloaded(let retryAfter) {
            throw Self.refusal(retryAfter: retryAfter)
        }
    }

    private static func refusal(retryAfter: Int) -> Abort {
        Abort(
            .serviceUnavailable, reason: "Too many logins are being checked; try again in \(retryAfter) seconds.",
            headers: ["Retry-After": "\(retryAfter)"])
    }
}
