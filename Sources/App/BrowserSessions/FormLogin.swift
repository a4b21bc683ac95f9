import Web

/// A login through TIL's sign-in form: the password checked exactly as `POST /api/users/login`
/// checks it (`BasicLogin`: throttle, bcrypt admission, unknown users costing a full bcrypt,
/// audit and metrics), then a browser session opened for the account the way a Basic login
/// opens its token pair (`BasicLogin.open`: under the proof that the password is still the
/// account's).
struct FormLogin: Sendable {
    let login: BasicLogin
    let sessions: BrowserSessionRepository

    /// The new session; throws `BasicLogin.invalidCredentials` (401), the throttle's 429 or
    /// bcrypt's admission refusal, as a Basic login would.
    func signIn(username: String, password: String, _ request: Request) async throws -> BrowserSession {
        let user = try await login.authenticate(username: username, password: password, request)
        let userAgent = request.storedUserAgent
        return try await login.open(for: user, password: password, request, sessionID: \BrowserSession.id) { user in
            try await sessions.start(for: user, userAgent: userAgent)
        }
    }
}
