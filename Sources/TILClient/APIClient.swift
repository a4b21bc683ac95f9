public import Foundation

/// A client for the TIL API that gets authentication right so its callers never have to.
///
/// ```swift
/// let til = APIClient(server: URL(string: "http://127.0.0.1:8080")!, store: FileCredentialStore())
/// try await til.login(username: "admin", password: "password")
/// let omg = try await til.acronyms.create(short: "OMG", long: "Oh My God")
/// for try await page in til.acronyms.list(limit: 100) { print(page.items.count) }
/// ```
///
/// Without a password in the app: `beginBrowserSignIn` / `finishBrowserSignIn` (the code flow of
/// a native app, RFC 8252), then `accessToken(scopes:)` for a token per API from that one sign-in.
/// In a script or CI: `init(server:personalAccessToken:)` with a token from `tokens.create`.
///
/// Every request goes through a pipeline of small steps (`RequestStep`): base URL and JSON;
/// Basic credentials for the login; a bearer token for everything else, renewed ahead of its
/// expiry and once after a 401 `invalid_token` — one refresh however many requests wait on it;
/// waiting and retrying on 429/503 as `Retry-After` says; with `Configuration.reauthenticate`,
/// answering a step-up challenge (RFC 9470) and sending once more. A credential goes only to the
/// origin it was issued by, checked before every send; no redirect is followed. Answers other
/// than 2xx are thrown as `TILError`.
public struct APIClient: Sendable {
    public let server: URL
    let pipeline: Pipeline
    let keeper: TokenKeeper
    /// What this client was made with: the client that ends a replaced login at its own
    /// server starts from it.
    let configuration: Configuration

    /// A client whose tokens live in `store` (in memory unless told otherwise).
    public init(server: URL, store: any CredentialStore = MemoryCredentialStore(), configuration: Configuration = Configuration()) {
        self.init(server: server, source: .store(store), configuration: configuration)
    }

    /// A client that sends one bearer token it was given, as it is: no login, no refresh.
    public init(server: URL, bearerToken: String, configuration: Configuration = Configuration()) {
        self.init(server: server, source: .fixed(bearerToken), configuration: configuration)
    }

    private init(server: URL, source: TokenKeeper.Source, configuration: Configuration) {
        self.server = server
        self.configuration = configuration
        let transport = configuration.transport ?? URLSessionTransport(timeout: configuration.timeout)
        let base = BaseURLStep(server: server, userAgent: configuration.userAgent)
        let retry = RetryStep(policy: configuration.retry)
        let last = configuration.steps + [CredentialOriginStep()]
        let plain = Pipeline([base, retry] + last, transport: transport)
        let stepUp: [any RequestStep] = configuration.reauthenticate.map { [StepUpStep(reauthenticate: $0)] } ?? []
        keeper = TokenKeeper(
            source: source, server: server, margin: configuration.refreshMargin,
            refreshLimit: configuration.refreshLimit, refreshWindow: configuration.refreshWindow,
            refresh: { credential, scopes in
                if let clientID = credential.oauthClientID {
                    return try await OAuthTokens.refresh(credential, scopes: scopes, clientID: clientID, on: plain)
                }
                var request = try APIRequest("POST", "/api/users/refresh", json: RefreshRequest(refreshToken: credential.refreshToken))
                request.credentialOrigins = credential.origins
                return try Self.issued(from: try Self.checked(try await plain.send(request), for: request))
            })
        pipeline = Pipeline(stepUp + [base, BasicAuthStep(), BearerAuthStep(keeper: keeper), retry] + last, transport: transport)
    }

    /// Sends `request` through the pipeline; any answer but 2xx is thrown as a `TILError`.
    @discardableResult
    public func send(_ request: APIRequest) async throws -> APIResponse {
        try Self.checked(try await pipeline.send(request), for: request)
    }

    /// Sends `request` and decodes its JSON answer.
    public func send<T: Decodable>(_ request: APIRequest, as type: T.Type) async throws -> T {
        try Self.decode(type, from: try await send(request))
    }

    static func decode<T: Decodable>(_ type: T.Type, from response: APIResponse) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: response.body)
        } catch {
            throw TILError.invalidResponse("\(response.url.path) did not answer a \(type): \(error)")
        }
    }

    /// The answer, or the error it means: a redirect (never followed) is `redirected`; a 401 to
    /// a bearer request is "not authenticated" (the token was refused even after a refresh);
    /// the rest keep status and reason.
    static func checked(_ response: APIResponse, for request: APIRequest) throws -> APIResponse {
        guard !response.isSuccess else { return response }
        if (300..<400).contains(response.status), let location = response.header("Location") {
            throw TILError.redirected(status: response.status, location: location)
        }
        if let need = StepUpStep.challenge(in: response, for: request) { throw TILError.reauthenticationRequired(need) }
        if let methods = StepUpStep.factorsNeeded(in: response) {
            throw TILError.reauthenticationRequired(ReauthenticationNeed(maxAge: 0, methods: methods))
        }
        let reason = (try? JSONDecoder().decode(ErrorBody.self, from: response.body))?.reason
            ?? StatusText.text(response.status)
        switch request.authorization {
        case .bearer, .session:
            if response.status == 401 { throw TILError.notAuthenticated(reason) }
            if response.status == 403, reason == PersonalAccessToken.needsLoginReason { throw TILError.needsLogin }
        case .none, .basic:
            break
        }
        throw TILError.server(status: response.status, reason: reason, authenticateError: response.authenticateError)
    }

    static func issued(from response: APIResponse) throws -> IssuedToken {
        IssuedToken(token: try decode(Token.self, from: response), serverDate: response.serverDate, receivedAt: response.receivedAt)
    }

    /// The server as credentials record it: its URL without a trailing slash.
    static func key(_ server: URL) -> String {
        var text = server.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
