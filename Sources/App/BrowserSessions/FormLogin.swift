import Web

/// A login through TIL's sign-in form: the password checked exactly as `POST /api/users/login`
/// checks it (`BasicLogin`: throttle, bcrypt admission, unknown users costing a full bcrypt,
/// audit and metrics), then a browser session opened for the account the way a Basic login
/// opens its token pair (`BasicLogin.open`: under the proof that the password is still the
/// account's). An account with two-step sign-in stops between the two: the second step
/// (`SecondStepPagesController`) opens the session once a code proves it.
struct FormLogin: Sendable {
    let login: BasicLogin
    let sessions: BrowserSessionRepository

    /// The account `username` and `password` prove; throws `BasicLogin.invalidCredentials`
    /// (401), the throttle's 429 or bcrypt's admission refusal, as a Basic login would.
    func authenticate(username: String, password: String, _ request: Request) async throws -> BasicLogin.Proven {
        try await login.authenticate(username: username, password: password, request)
    }

    /// The new session of `user`, whom `password` proved.
    func open(_ user: User, password: String, _ request: Request) async throws -> BrowserSession {
        let userAgent = request.storedUserAgent
        return try await login.open(for: user, password: password, request, sessionID: \BrowserSession.id) { user in
            try await sessions.start(for: user, userAgent: userAgent)
        }
    }
}
