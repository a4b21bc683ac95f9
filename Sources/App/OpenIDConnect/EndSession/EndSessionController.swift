import Foundation
import Web

/// The `end_session_endpoint` (OpenID Connect RP-Initiated Logout 1.0): `GET` and form `POST
/// /oauth/logout`. A request carries no CSRF token (a relying party sends the browser here); it
/// ends the browser session at once when its `id_token_hint` names the signed-in user, and
/// otherwise shows a confirmation, whose form (CSRF token bound to the session) posts back
/// here. Signed out, the browser goes to the registered `post_logout_redirect_uri` with
/// `state`, or sees TIL's page.
struct EndSessionController: RouteCollection {
    let loginPages: LoginPagesController
    let clients: ClientRepository
    let keys: SigningKeyRing
    let issuer: ServedIssuer

    func boot(routes: any RoutesBuilder) throws {
        let pages = routes.grouped(PageErrorMiddleware())
        pages.get("oauth", "logout", use: endSession)
        pages.post("oauth", "logout", use: endSession)
    }

    func endSession(_ request: Request) async throws -> Response {
        let fields = request.method == .post ? try FormFields(form: request) : FormFields(query: request)
        let logout = try await LogoutRequest(fields, keys: keys, clients: clients, issuer: issuer.current)
        guard let session = try await loginPages.current(request) else { return signedOut(logout, wasSignedIn: false) }
        let confirmed = try request.method == .post && fields.single("csrf_token") != nil
        if confirmed { try CSRFToken.check(fields, boundTo: session.cookieValue) }
        guard confirmed || logout.hintSubject == session.user.id.uuidString.lowercased() else {
            return confirmation(logout, session: session)
        }
        if let ended = try await loginPages.sessions.end(cookieValue: session.cookieValue) {
            loginPages.audit.record(.logout, request, userID: ended.userID, sessionID: ended.sessionID)
        }
        return signedOut(logout, wasSignedIn: true)
    }

    /// Back to the client, or TIL's notice; the session's cookie removed either way.
    private func signedOut(_ logout: LogoutRequest, wasSignedIn: Bool) -> Response {
        var headers = HTTPHeaders()
        headers.setCookie(loginPages.cookies.removingSession)
        guard let location = logout.redirect else {
            var page = wasSignedIn
                ? MessagePage.notice(title: "Signed out", "You are signed out of TIL.")
                : MessagePage.notice(title: "Sign out", "You are not signed in.")
            page.headers = headers
            return page.response
        }
        return PageResponse.redirect(to: location, headers: headers)
    }

    /// "Sign out?", carrying the request to the confirming POST; its CSP lets that POST's
    /// redirect reach the client.
    private func confirmation(_ logout: LogoutRequest, session: BrowserSession) -> Response {
        var carried: [(name: String, value: String)] = []
        if let client = logout.client { carried.append((name: "client_id", value: client.id)) }
        if let uri = logout.postLogoutRedirectURI { carried.append((name: "post_logout_redirect_uri", value: uri)) }
        if let state = logout.state { carried.append((name: "state", value: state)) }
        let form = SignOutForm(
            csrfToken: session.csrfToken, username: session.user.username, action: OpenIDEndpoints.endSession,
            clientName: logout.client?.name, carried: carried)
        let targets = logout.postLogoutRedirectURI.flatMap(ContentSecurityPolicy.source(of:)).map { [$0] } ?? []
        return PageResponse(html: form.html, policy: ContentSecurityPolicy(formTargets: targets)).response
    }
}
