import Crypt
import Foundation
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

    /// A proven password: its user, and whether TOTP is on (no session before the second step).
    struct Proven: Sendable {
        let user: User
        let secondFactorRequired: Bool
    }

    /// The request's `Authorization: Basic` credentials; a 401 with the challenge without them.
    static func credentials(of request: Request) throws -> BasicAuthorization {
        guard let basic = request.headers.basicAuthorization else {
            throw Abort(.unauthorized, reason: "HTTP Basic credentials are required.", headers: challenge)
        }
        return basic
    }

    /// The user `username` and `password` prove (from the Basic header or the login page's
    /// form: the same throttle, bcrypt admission, audit lines and metrics), as stored after any
    /// rehash (its hash is the one a session may be started against). Throws
    /// `invalidCredentials` (401) or the throttle's 429.
    func authenticate(username: String, password: String, _ request: Request) async throws -> Proven {
        let outcome: PasswordVerifier.Outcome
        do {
            outcome = try await verifier.verify(password, username: username, address: request.clientAddress)
        } catch let error as BcryptError {
            if case .overloaded = error { metrics.record(.rejectedBusy) }
            throw error
        }
        switch outcome.verdict {
        case .accepted(let user, let secondFactorRequired):
            metrics.record(.success)
            return Proven(user: await rehash.upgrade(user, password: password), secondFactorRequired: secondFactorRequired)
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

    /// What a login proven by `authenticate` opens (a token pair, a browser session), started
    /// by `start`, which refuses (nil) once `user`'s stored hash is no longer the one verified.
    /// After a concurrent rehash (the password itself unchanged) it gets one more try under the
    /// re-proven user; a changed password fails the login, since what was proven is gone. Either
    /// outcome is audited, the success with the new session's id.
    func open<Session>(
        for user: User, password: String, _ request: Request, sessionID: (Session) -> UUID,
        start: (User) async throws -> Session?
    ) async throws -> Session {
        var session = try await start(user)
        if session == nil, let rehashed = try await verifier.reprove(password, of: user) {
            session = try await start(rehashed)
        }
        guard let session else {
            audit.record(.loginFailed, request, userID: user.id, username: user.username)
            throw Self.invalidCredentials
        }
        audit.record(.loginSucceeded, request, userID: user.id, sessionID: sessionID(session))
        return session
    }
}
