import Web

/// TIL's sign-in and sign-out pages: `GET/POST /login?return_to=<local path>`, and the
/// confirmation page `/logout`, whose POST ends the browser session (`/oauth/logout` is
/// OpenID Connect's `EndSessionController`).
/// Every form carries a CSRF token: bound to the pre-login cookie on the sign-in form, to the
/// session's cookie on the others.
struct LoginPagesController: RouteCollection {
    let formLogin: FormLogin
    let sessions: BrowserSessionRepository
    /// Whether a correct password still needs a second step, and that step's check.
    let secondFactors: SecondFactors
    let cookies: BrowserCookies
    let audit: AuditLog
    /// The client and CSP of a login that continues an authorization request (`return_to`).
    let context: @Sendable (_ returnTo: String?) async throws -> LoginContext

    static let maxUsernameBytes = 1024
    static let maxPasswordBytes = 1024

    func boot(routes: any RoutesBuilder) throws {
        let pages = routes.grouped(PageErrorMiddleware())
        pages.get("login", use: showLogin)
        pages.post("login", use: logIn)
        pages.post("login", "mfa", use: completeSecondStep)
        pages.get("logout", use: { try await showSignOut($0, action: "/logout") })
        pages.post("logout", use: signOut)
    }

    /// The live browser session the request's cookie proves, if any.
    func current(_ request: Request) async throws -> BrowserSession? {
        guard let value = request.cookie(cookies.sessionName) else { return nil }
        return try await sessions.find(cookieValue: value)
    }

    /// The sign-in form, with the pre-login cookie its token is bound to.
    func loginPage(
        _ request: Request, returnTo: String?, context: LoginContext, status: HTTPStatus = .ok, username: String = "",
        error: String? = nil, notice: String? = nil, headers: HTTPHeaders = [:]
    ) -> PageResponse {
        let (secret, cookie) = cookies.preLogin(for: request)
        let form = LoginForm(
            csrfToken: CSRFToken.token(boundTo: secret), returnTo: returnTo, username: username, error: error, notice: notice,
            clientName: context.clientName)
        var headers = headers
        headers.setCookie(cookie)
        var policy = context.policy
        policy.runsScript = true  // the passkeys script, TIL's own file
        return PageResponse(status: status, html: form.html, policy: policy, headers: headers)
    }

    /// The sign-in form; a signed-in browser goes straight on to `return_to` (or is told who it
    /// is), unless its sign-in is older than `max_age` seconds (`RecentAuthentication`'s fresh
    /// sign-in before a sensitive change): then the form again, the username filled in.
    func showLogin(_ request: Request) async throws -> Response {
        let query = FormFields(query: request)
        let returnTo = try Self.returnTo(query)
        let maxAge = try Self.maxAge(query)
        if let session = try await current(request) {
            if let maxAge, session.secondsSinceAuthentication > Double(maxAge) {
                return loginPage(
                    request, returnTo: returnTo, context: try await context(returnTo), username: session.user.username,
                    notice: "This change needs a recent sign-in: enter your password again to go on.").response
            }
            // Already signed in: straight on, or say so.
            guard let returnTo else { return signedIn(session) }
            return PageResponse.redirect(to: returnTo)
        }
        return loginPage(request, returnTo: returnTo, context: try await context(returnTo)).response
    }

    func logIn(_ request: Request) async throws -> Response {
        let fields = try FormFields(form: request)
        try CSRFToken.check(fields, boundTo: request.cookie(cookies.preLoginName))
        let returnTo = try Self.returnTo(fields)
        let username = try fields.single("username", maxBytes: Self.maxUsernameBytes) ?? ""
        let password = try fields.single("password", maxBytes: Self.maxPasswordBytes) ?? ""
        /// The form again with `error`; its context (a client lookup) is read only here, since a
        /// successful login redirects without it.
        func formAgain(_ status: HTTPStatus, _ error: String, headers: HTTPHeaders = [:]) async throws -> Response {
            loginPage(
                request, returnTo: returnTo, context: try await context(returnTo), status: status, username: username,
                error: error, headers: headers).response
        }
        guard !username.isEmpty, !password.isEmpty else {
            return try await formAgain(.badRequest, "Enter your username and your password.")
        }
        do {
            let proven = try await formLogin.authenticate(username: username, password: password, request)
            if proven.secondFactorRequired {
                return try await beginSecondStep(for: proven.user, returnTo: returnTo, request)
            }
            return try await enter(try await formLogin.open(proven.user, password: password, request), returnTo: returnTo, request)
        } catch let refusal as Abort where refusal.status == .unauthorized || refusal.status == .tooManyRequests {
            let message = refusal.status == .unauthorized ? "Wrong username or password." : refusal.reason
            var headers = refusal.headers
            headers.remove(name: "WWW-Authenticate")  // a page, not a Basic challenge
            return try await formAgain(refusal.status, message, headers: headers)
        }
    }

    /// The browser signed in as `session`: its cookie set (a cookie of an earlier session in
    /// this browser ends that one), the pre-login cookie gone, and on to `returnTo` or the
    /// account page.
    func enter(
        _ session: BrowserSession, returnTo: String?, _ request: Request, otherwise: String = AccountPageController.path
    ) async throws -> Response {
        PageResponse.redirect(to: returnTo ?? otherwise, headers: try await signedIn(session, request))
    }

    /// The cookies of a browser that signed in as `session` (the form's redirect, the passkeys
    /// script's JSON): the session's set, the pre-login one gone, and an earlier session of
    /// this browser ended, since this one replaces it.
    func signedIn(_ session: BrowserSession, _ request: Request) async throws -> HTTPHeaders {
        if let earlier = request.cookie(cookies.sessionName) { try await sessions.end(cookieValue: earlier) }
        var headers = HTTPHeaders()
        headers.setCookie(cookies.session(session))
        headers.setCookie(cookies.removingPreLogin)
        return headers
    }

    func showSignOut(_ request: Request, action: String) async throws -> Response {
        guard let session = try await current(request) else { return MessagePage.notice(title: "Sign out", "You are not signed in.").response }
        let form = SignOutForm(csrfToken: session.csrfToken, username: session.user.username, action: action)
        return PageResponse(html: form.html).response
    }

    func signOut(_ request: Request) async throws -> Response {
        let fields = try FormFields(form: request)
        let value = try CSRFToken.check(fields, boundTo: request.cookie(cookies.sessionName))
        if let ended = try await sessions.end(cookieValue: value) {
            audit.record(.logout, request, userID: ended.userID, sessionID: ended.sessionID)
        }
        var page = MessagePage.notice(title: "Signed out", "You are signed out of TIL.")
        page.headers.setCookie(cookies.removingSession)
        return page.response
    }

    /// `/login` when signed in: who, and the way out.
    private func signedIn(_ session: BrowserSession) -> Response {
        let form = SignOutForm(csrfToken: session.csrfToken, username: session.user.username, action: "/logout")
        return sliding(PageResponse(html: form.html), session).response
    }

    /// `page` with the session's cookie sent again: its idle expiry (`BROWSER_SESSION_IDLE`)
    /// restarts from now, as it did in the database when `current` found the session. Every
    /// page shown to a signed-in browser goes through here.
    func sliding(_ page: PageResponse, _ session: BrowserSession) -> PageResponse {
        var page = page
        page.headers.setCookie(cookies.session(session))
        return page
    }

    /// `max_age`, when sent: a whole number of seconds, or a 400.
    static func maxAge(_ fields: FormFields) throws -> Int? {
        guard let text = try fields.single("max_age", maxBytes: 16) else { return nil }
        guard !text.isEmpty, text.utf8.count <= 10, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let seconds = Int(text) else {
            throw Abort(.badRequest, reason: "max_age must be a number of seconds.")
        }
        return seconds
    }

    /// `return_to`, when sent: a path on this server, or a 400.
    static func returnTo(_ fields: FormFields) throws -> String? {
        guard let value = try fields.single("return_to", maxBytes: ReturnTo.maxLength) else { return nil }
        guard let path = ReturnTo.validated(value) else {
            throw Abort(.badRequest, reason: "return_to must be a path on this server.")
        }
        return path
    }
}
