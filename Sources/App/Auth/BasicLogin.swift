import Crypt
import Web

/// `POST /api/users/login`'s check of HTTP Basic credentials (`PasswordVerifier`), with what a
/// login adds: an audit line and a metric for each outcome, a `Basic` challenge on a 401, and
/// the stored hash brought up to `BCRYPT_COST` once the password is proven (`PasswordRehash`).
struct BasicLogin: Sendable {
    let verifier: PasswordVerifier
    let rehash: PasswordRehash
    let audit: AuditLog
    let metrics: LoginMetrics

    static let challenge: HTTPHeaders = ["WWW-Authenticate": #"Basic realm="TIL""#]
    static let invalidCredentials = Abort(.unauthorized, reason: "Invalid username or password.", headers: challenge)

    /// The user the credentials prove, as stored after any rehash (its hash is the one a
    /// session may be started against).
    func authenticate(_ request: Request) async throws -> User {
        guard let basic = request.headers.basicAuthorization else {
            throw Abort(.unauthorized, reason: "HTTP Basic credentials are required.", headers: Self.challenge)
        }
        let outcome: PasswordVerifier.Outcome
        do {
            outcome = try await verifier.verify(basic.password, username: basic.username, address: request.clientAddress)
        } catch let error as BcryptError {
            if case .overloaded = error { metrics.record(.rejectedBusy) }
            throw error
        }
        switch outcome.verdict {
        case .accepted(let user):
            metrics.record(.success)
            return await rehash.upgrade(user, password: basic.password)
        case .rejected:
            audit.record(.loginFailed, request, userID: outcome.user?.id, username: outcome.username)
            metrics.record(.failure)
            throw Self.invalidCredentials
        case .throttled(let wait):
            audit.record(.loginThrottled, request, userID: outcome.user?.id, username: outcome.username)
            metrics.record(.throttled)
            throw LoginThrottle.refusal(retryAfter: wait)
        }
    }

    /// `user` again when the stored hash changed after `authenticate` without the password
    /// changing (a concurrent rehash): then a session may still start. Nil otherwise.
    func reprove(_ user: User, _ request: Request) async throws -> User? {
        guard let basic = request.headers.basicAuthorization else { return nil }
        return try await verifier.reprove(basic.password, of: user)
    }
}
