import Foundation

/// Logging in and out, and who the client is logged in as.
extension APIClient {
    /// `POST /api/users/login` with HTTP Basic: starts a session and keeps its tokens, under
    /// the scope set granted (all unless `scopes` names fewer). The sessions it replaces —
    /// the same scopes here, or every login held for another server or user — are ended at the
    /// server that issued them.
    ///
    /// For an account with TOTP on, a right password issues no token yet: this throws
    /// `TILError.secondFactorRequired` with the challenge that `completeSecondFactor` finishes.
    @discardableResult
    public func login(username: String, password: String, scopes: Set<Scope>? = nil) async throws -> Token {
        var query: [(name: String, value: String)] = []
        if let scopes { query.append((name: "scope", value: ScopeSet(scopes).description)) }
        let request = APIRequest("POST", "/api/users/login", query: query, authorization: .basic(username: username, password: password))
        let response = try await pipeline.send(request)
        if let challenge = SecondFactorChallenge(response, username: username) { throw TILError.secondFactorRequired(challenge) }
        return try await keepLogin(Self.issued(from: try Self.checked(response, for: request)), username: username)
    }

    /// `POST /api/users/logout` for every login this client holds, then forgets them.
    public func logout() async throws {
        for credential in try await keeper.stored().credentials {
            do {
                try await send(APIRequest("POST", "/api/users/logout", authorization: .session(credential.scopes)))
            } catch TILError.notAuthenticated {
                // Over already: nothing to end.
            }
            try await keeper.forget(credential.scopes)
        }
        if case .fixed = keeper.source {
            try await send(APIRequest("POST", "/api/users/logout", authorization: .bearer(nil)))
        }
    }

    /// `POST /api/users/logout-all`: ends every session of the user, on every device (needs
    /// the `account` scope), then forgets this client's tokens.
    public func logoutEverywhere() async throws {
        try await send(APIRequest("POST", "/api/users/logout-all", authorization: .bearer(.account)))
        try await keeper.forget(nil)
    }

    /// `GET /api/users/me`: the user the token belongs to.
    public func me() async throws -> PublicUser {
        try await send(APIRequest("GET", "/api/users/me", authorization: .bearer(nil)), as: PublicUser.self)
    }

    /// The credentials this client holds for its server (none for a fixed token).
    public func credentials() async throws -> StoredCredentials {
        try await keeper.stored()
    }

    /// `GET /health`: whether the server answers at all (no database involved).
    public func health() async throws -> Bool {
        struct Health: Decodable { var status: String }
        return try await send(APIRequest("GET", "/health"), as: Health.self).status == "ok"
    }

    /// Ends sessions whose tokens a login just replaced, at their own server — a client of
    /// that server logs out of them, so their tokens go nowhere else — without a word if it
    /// cannot (the server gone or slow: one attempt each, all at once, 5 s at most): they are
    /// forgotten all the same.
    ///
    /// Ended rather than only forgotten: a forgotten session stays live on its server until its
    /// refresh token lapses, and any copy of its tokens left elsewhere keeps working.
    func endQuietly(_ replaced: StoredCredentials) async {
        guard !replaced.isEmpty, let server = replaced.server.flatMap(URL.init(string:)) else { return }
        var configuration = configuration
        configuration.retry = .never
        configuration.timeout = min(configuration.timeout, 5)
        // Their own stores, so their refreshes (if any) run side by side; one transport, so
        // one URLSession and its connections serve them all.
        configuration.transport = configuration.transport ?? URLSessionTransport(timeout: configuration.timeout)
        let brief = configuration
        await withTaskGroup(of: Void.self) { group in
            for credential in replaced.credentials {
                let one = StoredCredentials(server: replaced.server, username: replaced.username, credentials: [credential])
                group.addTask { try? await APIClient(server: server, store: MemoryCredentialStore(one), configuration: brief).logout() }
            }
        }
    }
}
