import Web

/// A login through TIL's sign-in form: the password checked exactly as `POST /api/users/login`
/// checks it (`BasicLogin`: throttle, bcrypt admission, unknown users costing a full bcrypt,
/// audit and metrics), then a browser session started for the account, under the same proof
/// that the password is still the account's.
struct FormLogin: Sendable {
    let login: BasicLogin
    let sessions: BrowserSessionRepository
    let audit: AuditLog

    /// The new session; throws `BasicLogin.invalidCredentials` (401), the throttle's 429 or
    /// bcrypt's admission refusal, as a Basic login would.
    func signIn(username: String, password: String, _ request: Request) async throws -> BrowserSession {
        let user = try await login.authenticate(username: username, password: password, request)
        let userAgent = request.storedUserAgent
        var session = try await sessions.start(for: user, userAgent: userAgent)
        if session == nil, let rehashed = try await login.reprove(user, password: password) {
            session = try await sessions.start(for: rehashed, userAgent: userAgent)
        }
        guard let session else {
            // The password changed while it was being checked: what was proven is gone.
            audit.record(.loginFailed, request, userID: user.id, username: user.username)
            throw BasicLogin.invalidCredentials
        }
        audit.record(.loginSucceeded, request, userID: user.id, sessionID: session.id)
        return session
    }
}
