import Crypt
import Web

/// `POST /api/users/login`'s check of HTTP Basic credentials (`PasswordVerifier`), with what a
/// login adds: an audit line and a metric for each outcome, and a `Basic` challenge on a 401.
struct BasicLogin: Sendable {
    let users: UserRepository
    let verifier: PasswordVerifier
    let audit: AuditLog
    let metrics: LoginMetrics

    static let challenge: HTTPHeaders = ["WWW-Authenticate": #"Basic realm="TIL""#]

    func authenticate(_ request: Request) async throws -> User {
        guard let basic = request.headers.basicAuthorization else {
            throw Abort(.unauthorized, reason: "HTTP Basic credentials are required.", headers: Self.challenge)
        }
        let verdict: PasswordVerifier.Verdict
        do {
            verdict = try await verifier.verify(basic.password, username: basic.username, address: request.clientAddress) {
                basic.username.utf8.count <= 256 ? try await users.find(username: basic.username) : nil
            }
        } catch let error as BcryptError {
            if case .overloaded = error { metrics.record(.rejectedBusy) }
            throw error
        }
        switch verdict {
        case .accepted(let user):
            metrics.record(.success)
            return user
        case .rejected(let user):
            audit.record(.loginFailed, request, userID: user?.id)
            metrics.record(.failure)
            throw Abort(.unauthorized, reason: "Invalid username or password.", headers: Self.challenge)
        case .throttled(let wait):
            audit.record(.loginThrottled, request)
            metrics.record(.throttled)
            throw LoginThrottle.refusal(retryAfter: wait)
        }
    }
}
