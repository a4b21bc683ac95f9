import Foundation
import Web
import WebAuthn

/// Logging in with a passkey under `/api/users/login/passkey`: the options (a challenge, and
/// the credentials a named user may answer with), then the assertion, which opens a session
/// as a password login does. A passkey with user verification is a whole login: no second
/// factor follows it.
struct PasskeyLoginController: RouteCollection {
    let options: PasskeyLoginOptions
    let authentication: PasskeyAuthentication
    let tokens: TokenRepository
    let admins: AdminRole
    let audit: AuditLog

    func boot(routes: any RoutesBuilder) throws {
        let login = routes.grouped("api", "users", "login", "passkey")
        login.post("options", use: requestOptions)
        login.post(use: logIn)
    }

    func requestOptions(_ request: Request) async throws -> Response {
        try await options.options(for: try PasskeyLoginOptions.body(of: request), from: request.clientAddress).encodeResponse(for: request).notStored()
    }

    /// A new session with the scopes asked for (`?scope=`) or all that any user may hold.
    func logIn(_ request: Request) async throws -> Response {
        let scopes = try request.query["scope"].map(Scope.parse) ?? Scope.known
        let response = try request.content.decode(AuthenticationResponse.self)
        let user = try await authentication.authenticate(response, for: .login, request)
        try await admins.check(scopes, for: user.id)
        let amr = ["hwk", "user"]  // RFC 8176: a hardware-held key, and the user verified on it (UV)
        guard let token = try await tokens.startSession(for: user, scopes: scopes, userAgent: request.storedUserAgent, amr: amr) else {
            // Only a password change between the lookup and here: the session is not started.
            throw PasskeyAuthentication.refusal("the account changed during the login; try again")
        }
        audit.record(.loginSucceeded, request, userID: user.id, sessionID: token.id)
        return try token.noStoreResponse(for: request)
    }
}
