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
        return try await authenticate(username: basic.username, password: basic.password, request)
    }

    /// The same check of a username and password sent another way (the login page's form):
    /// the same throttle, bcrypt admission, audit lines and metrics. Throws
    /// `invalidCredentials` (401) or the throttle's 429.
    func authenticate(username: String, password: String, _ request: Request) async throws -> User {
        let outcome: PasswordVerifier.Outcome
        do {
            outcome = try await verifier.verify(password, username: username, address: request.clientAddress)
        } catch let error as BcryptError {
            if case .overloaded = error { metrics.record(.rejectedBusy) }
            throw error
        }
        switch outcome.verdict {
        case .accepted(let user):
            metrics.record(.success)
            return await rehash.upgrade(user, password: password)
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
        return try await reprove(user, password: basic.password)
    }

    func reprove(_ user: User, password: String) async throws -> User? {
        try await verifier.reprove(password, of: user)
    }
}
