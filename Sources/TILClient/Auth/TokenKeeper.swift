import Foundation

/// Hands out bearer tokens fit to send, and renews them: one refresh at a time per refresh token.
///
/// Every request asks the keeper for its token. A token within the refresh margin of its
/// expiry is renewed before it leaves; a token the server refused (401 `invalid_token`) is
/// renewed once after. However many requests find the token stale together, exactly one
/// refresh runs — the first starts it, the rest await the same task — and it runs inside the
/// store's exclusive `update`, so other clients and processes on the store join it too: each
/// re-reads the store first and takes a pair someone else already renewed.
///
/// Every credential records the origin of the server that issued it, and leaves the keeper
/// only with it: a request that carries its access token, or its refresh token, is sent to
/// that origin alone (`CredentialOriginStep`).
///
/// An OAuth sign-in holds one token per scope set asked for (`APIClient.accessToken(scopes:)`),
/// all sharing the sign-in's one rotating refresh token: a missing scope set is obtained by a
/// narrowing refresh, and every rotation gives the new refresh token to all of them in the same
/// store write (`StoredCredentials.rotate`). Refreshes of different scope sets queue on that
/// write, so each presents the refresh token the one before it left — never a spent one.
///
/// A refresh the server refuses means the login is over (revoked, expired, logged out
/// elsewhere): its credential is deleted, its refresh token never sent again, and the caller
/// gets `TILError.notAuthenticated`.
actor TokenKeeper {
    /// Which token a request wants.
    enum Want: Sendable {
        /// The least powerful token that has this scope (nil: any token).
        case scope(Scope?)
        /// The token with exactly these scopes.
        case session(ScopeSet)
    }

    /// Where tokens come from: a store the keeper renews, or one fixed token (`TIL_TOKEN`)
    /// that is sent as it is and never refreshed.
    enum Source: Sendable {
        case store(any CredentialStore)
        case fixed(String)
    }

    /// Sends the credential's refresh token where its login renews (`POST /api/users/refresh`,
    /// or the token endpoint for a web login), only to an origin recorded with it, and reads the
    /// answer (errors already typed).
    /// `scopes` is what the new access token is to hold: the credential's own, or fewer (a
    /// narrowing, for an OAuth sign-in only).
    typealias Refresh = @Sendable (_ credential: Credential, _ scopes: ScopeSet) async throws -> IssuedToken

    let source: Source
    /// The server as stored credentials name it (`APIClient.key`).
    let server: String
    /// Its origin: what a login's credential records, and where a fixed token may go.
    private let origins: [Origin]
    private let refresh: Refresh
    private let margin: TimeInterval
    private var refreshGuard: RefreshGuard
    private var inFlight: [ScopeSet: Task<Credential?, any Error>] = [:]
    /// Refresh tokens the server refused: never presented again.
    private var refused: Set<String> = []

    init(source: Source, server: URL, margin: Duration, refreshLimit: Int, refreshWindow: Duration, refresh: @escaping Refresh) {
        self.source = source
        self.server = APIClient.key(server)
        self.origins = Origin(server).map { [$0] } ?? []
        self.margin = Double(margin.components.seconds)
        self.refreshGuard = RefreshGuard(limit: refreshLimit, window: refreshWindow)
        self.refresh = refresh
    }

    /// The access token to send for `want`, renewed first if it is about to expire.
    func token(for want: Want) async throws -> BearerToken {
        let store: any CredentialStore
        switch source {
        case .fixed(let token): return BearerToken(value: token, origins: origins)
        case .store(let stored): store = stored
        }
        return try await fresh(try current(for: want, in: try await store.load()))
    }

    /// A replacement for `rejected`, which the server just refused; nil when there is none to
    /// try (a fixed token, or the refresh-loop guard says stop).
    func token(replacing rejected: String, for want: Want) async throws -> BearerToken? {
        guard case .store(let store) = source else { return nil }
        let stored = try await store.load()
        guard let held = stored.credentials.first(where: { $0.accessToken == rejected }) else {
            // Replaced meanwhile (a refresh that this call's 401 arrived after): retry with the
            // current token, from the same read. No refresh of the rejected one, so the
            // refresh-loop guard is not charged for it.
            return try await fresh(try current(for: want, in: stored))
        }
        return try await renew(held.scopes, rejecting: rejected).map(BearerToken.init)
    }

    /// Keeps the credential of a login that just succeeded, recorded for this server's origin.
    /// Tokens of another server or user are dropped first. Returns what this login replaced,
    /// with the server it belongs to — their sessions still live there.
    /// `oauthClientID` names the OAuth client of a web or browser login (nil: a password login).
    func keep(
        _ issued: IssuedToken, username: String, oauthClientID: String? = nil, signIn: SignInMethod = .password
    ) async throws -> StoredCredentials {
        guard case .store(let store) = source else { return StoredCredentials() }
        var issuedCredential = Credential(issued.token, origins: origins, serverDate: issued.serverDate, receivedAt: issued.receivedAt)
        issuedCredential.oauthClientID = oauthClientID
        issuedCredential.signIn = signIn
        let credential = issuedCredential
        let server = server
        return try await store.update { stored in
            var replaced = StoredCredentials(server: stored.server, username: stored.username)
            if stored.server != server || stored.credentials.contains(where: { $0.userID != credential.userID }) {
                replaced.credentials = stored.credentials
                stored = StoredCredentials(server: server)
            }
            stored.username = username
            if let old = stored.put(credential) { replaced.credentials.append(old) }
            return replaced
        }
    }

    /// Forgets the credential with `scopes`, or all of them.
    func forget(_ scopes: ScopeSet?) async throws {
        guard case .store(let store) = source else { return }
        try await store.update { stored in
            if let scopes { stored.remove(scopes) } else { stored = StoredCredentials() }
        }
    }

    /// The credential with exactly `scopes`: the one held (renewed first if about to expire), or
    /// one obtained now by narrowing an OAuth sign-in that holds them all — no page, no password.
    func credential(narrowedTo scopes: ScopeSet) async throws -> Credential {
        guard case .store(let store) = source else {
            throw TILError.invalidArgument("A client given one fixed token cannot obtain tokens for other scopes.")
        }
        let stored = try await store.load()
        guard stored.server == server, !stored.isEmpty else { throw TILError.notAuthenticated("Not logged in to \(server).") }
        if let held = stored.credential(for: scopes), !held.needsRefresh(at: Date(), margin: margin) { return held }
        guard stored.refreshSource(for: scopes) != nil else {
            throw TILError.notAuthenticated("No sign-in here grants '\(scopes)'; sign in in the browser asking for it.")
        }
        guard let renewed = try await renew(scopes, rejecting: nil) else {
            throw TILError.notAuthenticated("Too many refreshes of '\(scopes)' in a row; try again in a minute.")
        }
        return renewed
    }

    /// The stored credentials, when they belong to this client's server.
    func stored() async throws -> StoredCredentials {
        guard case .store(let store) = source else { return StoredCredentials() }
        let stored = try await store.load()
        return stored.server == server ? stored : StoredCredentials()
    }

    /// `credential`'s access token, renewed first if it is about to expire.
    private func fresh(_ credential: Credential) async throws -> BearerToken {
        guard credential.needsRefresh(at: Date(), margin: margin) else { return BearerToken(credential) }
        return BearerToken(try await renew(credential.scopes, rejecting: nil) ?? credential)
    }

    private func current(for want: Want, in stored: StoredCredentials) throws -> Credential {
        let credential: Credential?
        switch want {
        case .scope(let scope): credential = stored.server == server ? stored.best(for: scope) : nil
        case .session(let scopes): credential = stored.server == server ? stored.credential(for: scopes) : nil
        }
        guard let credential else {
            guard stored.server == server, !stored.isEmpty else { throw TILError.notAuthenticated("Not logged in to \(server).") }
            if case .scope(let scope?) = want {
                throw TILError.notAuthenticated("No token with the '\(scope.rawValue)' scope; log in with it.")
            }
            throw TILError.notAuthenticated("That login has ended.")
        }
        return credential
    }

    /// Single flight: joins the refresh of `scopes` under way, or starts it. Nil when the
    /// refresh-loop guard refuses.
    private func renew(_ scopes: ScopeSet, rejecting rejected: String?) async throws -> Credential? {
        do {
            if let running = inFlight[scopes] { return try await running.value }
            guard case .store(let store) = source, refreshGuard.permit(scopes) else { return nil }
            let task = Task { [server, refresh, margin, refused] in
                try await Self.refreshStored(
                    scopes, rejecting: rejected, in: store, server: server, margin: margin, refused: refused, refresh: refresh)
            }
            inFlight[scopes] = task
            defer { inFlight[scopes] = nil }
            return try await task.value
        } catch let refusal as RefreshRefused {
            if let token = refusal.refreshToken { refused.insert(token) }
            throw TILError.notAuthenticated(refusal.reason)
        }
    }

    /// The refresh itself, inside the store's exclusive update: re-read, and refresh only if
    /// nobody did meanwhile, with the refresh token the store holds now (one that another scope
    /// set's refresh may just have rotated).
    private static func refreshStored(
        _ scopes: ScopeSet, rejecting rejected: String?, in store: any CredentialStore, server: String, margin: TimeInterval,
        refused: Set<String>, refresh: @escaping Refresh
    ) async throws -> Credential? {
        let outcome: RefreshOutcome = try await store.update { stored in
            guard stored.server == server, let current = stored.refreshSource(for: scopes) else {
                return .failed(RefreshRefused(refreshToken: nil, reason: "Logged out."))
            }
            let now = Date()
            if current.scopes == scopes, current.accessToken != rejected, !current.needsRefresh(at: now, margin: margin) {
                return .renewed(current)
            }
            guard !refused.contains(current.refreshToken), !current.isOver(at: now) else {
                stored.removeAll(holding: current.refreshToken)
                return .failed(RefreshRefused(refreshToken: current.refreshToken, reason: "The login has ended; log in again."))
            }
            do {
                let issued = try await refresh(current, scopes)
                var renewed = Credential(issued.token, origins: current.origins, serverDate: issued.serverDate, receivedAt: issued.receivedAt)
                renewed.oauthClientID = current.oauthClientID
                renewed.signIn = current.signIn
                stored.rotate(current.refreshToken, to: renewed)
                return .renewed(renewed)
            } catch TILError.server(let status, let reason, _) where (400..<500).contains(status) && status != 429 {
                stored.removeAll(holding: current.refreshToken)
                return .failed(RefreshRefused(refreshToken: current.refreshToken, reason: reason))
            }
        }
        switch outcome {
        case .renewed(let credential): return credential
        case .failed(let refusal): throw refusal
        }
    }

    private enum RefreshOutcome: Sendable {
        case renewed(Credential)
        case failed(RefreshRefused)
    }

    private struct RefreshRefused: Error {
        let refreshToken: String?
        let reason: String
    }
}

extension BearerToken {
    /// A credential's access token, for the origins recorded with it.
    init(_ credential: Credential) {
        self.init(value: credential.accessToken, origins: credential.origins)
    }
}

/// A login or refresh answer with what is needed to date it: the server's clock and ours.
struct IssuedToken: Sendable {
    var token: Token
    var serverDate: Date?
    var receivedAt: Date
}
