import Crypt
import Web

/// Maps bcrypt's admission refusal to what a client should do: 503 with `Retry-After`, answered
/// at once and without hashing, when `LOGIN_QUEUE_LIMIT` logins already wait or a new one would
/// wait longer than `LOGIN_MAX_WAIT`. A bounded queue is what keeps a login storm from
/// growing every login's latency without end.
struct HashingErrorMiddleware: ErrorTranslatingMiddleware {
    func translate(_ error: any Error, for request: Request) -> any Error {
        guard case BcryptError.overloaded(let retryAfter) = error else { return error }
        return Abort(
            .serviceUnavailable, reason: "Too many logins are being checked; try again in \(retryAfter) seconds.",
            headers: ["Retry-After": "\(retryAfter)"])
    }
}
