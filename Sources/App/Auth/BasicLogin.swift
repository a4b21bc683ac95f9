import Crypt
import Web

/// `POST /api/users/login`'s check of HTTP Basic credentials: throttled first (a throttled
/// attempt costs no bcrypt and is not counted), then verified on the worker pool; failures
/// are counted, a success clears its username's count.
struct BasicLogin: Sendable {
    let users: UserRepository
    let passwords: PasswordCheck
    let throttle: LoginThrottle
    let audit: AuditLog
    let proxies: TrustedProxies
    let metrics: LoginMetrics

    static let challenge: HTTPHeaders = ["WWW-Authenticate": #"Basic realm="TIL""#]

    func authenticate(_ request: Request) async throws -> User {
        guard let basic = request.headers.basicAuthorization else {
            throw Abort(.unauthorized, reason: "HTTP Basic credentials are required.", headers: Self.challenge)
        }
        let address = proxies.clientAddress(of: request)
        if let wait = try await throttle.retryAfter(username: basic.username, address: address) {
            audit.record(.loginThrottled, request)
            metrics.record(.throttled)
            throw LoginThrottle.refusal(retryAfter: wait)
        }
        let user = basic.username.utf8.count <= 256 ? try await users.find(username: basic.username) : nil
        let matched: Bool
        do {
            matched = try await passwords.matches(basic.password, of: user)
        } catch let error as BcryptError {
            if case .overloaded = error { metrics.record(.rejectedBusy) }
            throw error
        }
        guard matched, let user else {
            try await throttle.recordFailure(username: basic.username, address: address)
            audit.record(.loginFailed, request, userID: user?.id)
            metrics.record(.failure)
            throw Abort(.unauthorized, reason: "Invalid username or password.", headers: Self.challenge)
        }
        try await throttle.reset(username: basic.username)
        metrics.record(.success)
        return user
    }
}
