import Foundation
import Web
import WebAuthn

/// The page endpoints `passkeys.js` calls: JSON in and out, authenticated by the browser's
/// cookie and the page's CSRF token in `X-CSRF-Token` (`PasskeyPageRequest`); the `/api`
/// routes never read a cookie. Signing in with a passkey starts a browser session as the
/// password form does; adding one needs the signed-in session.
struct PasskeyPagesController: RouteCollection {
    let options: PasskeyLoginOptions
    let authentication: PasskeyAuthentication
    let secondFactors: SecondFactors?
    let registration: PasskeyRegistration
    let passkeys: PasskeyRepository
    let relyingParty: ServedRelyingParty
    let loginPages: LoginPagesController
    let audit: AuditLog
    /// Adding a passkey needs a recent sign-in: else the script is sent to a fresh one.
    let recentAuthentication: RecentAuthentication

    /// Where a passkey sign-in without `return_to` goes on to.
    static let signedInPage = AccountPageController.path

    func boot(routes: any RoutesBuilder) throws {
        routes.post("login", "passkey", "options", use: loginOptions)
        routes.post("login", "passkey", use: signIn)
        routes.post("account", "passkeys", "options", use: creationOptions)
        routes.post("account", "passkeys", use: add)
    }

    /// The sign-in page's options: bound to its pre-login cookie, like its form.
    func loginOptions(_ request: Request) async throws -> Response {
        try PasskeyPageRequest.checkCSRF(request, boundTo: request.cookie(loginPages.cookies.preLoginName))
        return try await options.options(for: try PasskeyLoginOptions.body(of: request), from: request.clientAddress).encodeResponse(for: request).notStored()
    }

    /// `{"credential": AuthenticationResponseJSON, "returnTo"?, "mfaToken"?}` → a browser
    /// session, and `{"next"}`: `returnTo` (a path on this server) or the signed-in page. With
    /// an mfaToken, the passkey is the second factor of the password the sign-in form took.
    func signIn(_ request: Request) async throws -> Response {
        try PasskeyPageRequest.checkCSRF(request, boundTo: request.cookie(loginPages.cookies.preLoginName))
        let body = try request.content.decode(SignIn.self)
        let returnTo = try body.returnTo.map { path in
            guard let path = ReturnTo.validated(path) else { throw Abort(.badRequest, reason: "'returnTo' must be a path on this server.") }
            return path
        }
        let (user, amr, event): (User, [String], AuditLog.Event)
        if let mfaToken = body.mfaToken, let secondFactors {
            let success = try await secondFactors.complete(mfaToken, with: .passkey(body.credential), request)
            (user, amr, event) = (success.user, success.amr, .mfaLoginSucceeded)
        } else {
            (user, amr, event) = (try await authentication.authenticate(body.credential, for: .login, request), ["hwk", "user"], .loginSucceeded)
        }
        guard let session = try await loginPages.sessions.start(for: user, userAgent: request.storedUserAgent, amr: amr) else {
            throw PasskeyAuthentication.refusal("the account changed during the login; try again")
        }
        audit.record(event, request, userID: user.id, sessionID: session.id)  // a second step's as the API and the code form audit it
        return try PasskeyPageRequest.next(returnTo ?? Self.signedInPage, headers: try await loginPages.signedIn(session, request))
    }

    /// The account page's registration options, for the signed-in session's user.
    func creationOptions(_ request: Request) async throws -> Response {
        let session = try await signedIn(request)
        let options = try await PasskeysController.creationOptions(for: session.user, passkeys: passkeys, relyingParty: relyingParty.current)
        return try options.encodeResponse(for: request).notStored()
    }

    /// `{"name", "credential": RegistrationResponseJSON}` → 201 `{"next"}`: the account page again.
    func add(_ request: Request) async throws -> Response {
        let session = try await signedIn(request)
        let body = try request.content.decode(PasskeyRegistration.Body.self)
        _ = try await registration.register(body, for: session.user)
        audit.record(.passkeyRegistered, request, userID: session.user.id, sessionID: session.id)
        var response = try PasskeyPageRequest.next(AccountPageController.path)
        response.status = .created
        return response
    }

    /// The browser session the cookie proves, with the page's CSRF token, signed in within
    /// `REAUTH_WINDOW`; 401 or 403 otherwise (the 401 of a sign-in too old names the fresh
    /// sign-in as `next`, where the script goes).
    private func signedIn(_ request: Request) async throws -> BrowserSession {
        guard let session = try await loginPages.current(request) else {
            throw Abort(.unauthorized, reason: "You are not signed in: sign in again, then retry.")
        }
        try PasskeyPageRequest.checkCSRF(request, boundTo: session.cookieValue)
        try recentAuthentication.require(session, returnTo: AccountNotice.signedInAgain.location, request)
        return session
    }

    /// The body of `POST /login/passkey`.
    struct SignIn: Decodable, Sendable {
        let credential: AuthenticationResponse
        let returnTo: String?
        let mfaToken: String?
    }
}
