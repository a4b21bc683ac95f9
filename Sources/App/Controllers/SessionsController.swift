import Foundation
import Web

/// The token lifecycle under `/api/users`: log in with HTTP Basic, refresh a pair, log out of
/// one session or all of them (a login's: a personal access token may do neither).
struct SessionsController: RouteCollection {
    let login: BasicLogin
    let tokens: TokenRepository
    let rotation: RefreshRotation
    let sessions: SessionRepository
    let admins: AdminRole
    let secondFactors: SecondFactors
    let auth: BearerAuth
    let audit: AuditLog

    func boot(routes: any RoutesBuilder) throws {
        let api = routes.grouped("api", "users")
        api.post("login", use: logIn)
        api.post("refresh", use: refresh)
        auth.sessionGuarded(api, needing: nil).post("logout", use: logOut)
        auth.sessionGuarded(api, needing: .account).post("logout-all", use: logOutEverywhere)
    }

    /// A new session per successful login, with the scopes asked for (`?scope=`) or all that
    /// any user may hold: `clients:write` only when asked for, and only by an administrator.
    /// With TOTP on, no session yet: a 401 with an mfaToken for `POST /api/users/login/mfa`.
    func logIn(_ request: Request) async throws -> Response {
        let scopes = try request.query["scope"].map(Scope.parse) ?? Scope.known
        let credentials = try BasicLogin.credentials(of: request)
        let proven = try await login.authenticate(username: credentials.username, password: credentials.password, request)
        let user = proven.user
        try await admins.check(scopes, for: user.id)
        if proven.secondFactorRequired {
            return try await secondFactors.secondStep(for: user, scopes: scopes, request)
        }
        let userAgent = request.storedUserAgent
        let token = try await login.open(for: user, password: credentials.password, request, sessionID: \Token.id) { user in
            try await tokens.startSession(for: user, scopes: scopes, userAgent: userAgent)
        }
        return try token.noStoreResponse(for: request)
    }

    func refresh(_ request: Request) async throws -> Response {
        let body = try request.content.decode(RefreshRequest.self)
        guard let refreshToken = BearerToken(body.refreshToken) else {
            throw BearerChallenge.invalidToken("The refresh token is malformed.")
        }
        switch try await rotation.redeem(refreshToken.value) {
        case .issued(let token):
            audit.record(.tokenRefreshed, request, userID: token.user.id, sessionID: token.id)
            return try token.noStoreResponse(for: request)
        case .reuseDetected(let sessionID, let userID):
            audit.record(.refreshReuseDetected, request, userID: userID, sessionID: sessionID)
            throw BearerChallenge.invalidToken("The refresh token was already used; the session has been revoked.")
        case .rateLimited(let seconds):
            throw RefreshRateLimit.refusal(waiting: seconds)
        case .rejected(let reason):
            throw BearerChallenge.invalidToken(reason)
        }
    }

    /// Ends the caller's session: its access token and its refresh token stop working.
    func logOut(_ request: Request) async throws -> HTTPStatus {
        let identity = try request.auth.require(BearerIdentity.self)
        _ = try await sessions.end(identity.sessionID, of: identity.user.id)
        audit.record(.logout, request, userID: identity.user.id, sessionID: identity.sessionID)
        return .noContent
    }

    /// Ends every login of the user, this one too; personal access tokens stay (scripts are not
    /// logins: revoke those one by one).
    func logOutEverywhere(_ request: Request) async throws -> HTTPStatus {
        let identity = try request.auth.require(BearerIdentity.self)
        try await sessions.endAll(of: identity.user.id, keepingPersonalAccessTokens: true, on: sessions.db)
        audit.record(.logoutAll, request, userID: identity.user.id)
        return .noContent
    }
}
