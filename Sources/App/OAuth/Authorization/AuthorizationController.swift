import Web

/// The authorization endpoint (RFC 6749 §4.1, OAuth 2.1): `GET` and `POST /oauth/authorize`
/// (a form-encoded POST is the same request), and `POST /oauth/consent`, where TIL's consent
/// form posts the user's decision. With no browser session the endpoint shows the sign-in
/// form (which returns here); a third-party client's new scopes need the user's consent; the
/// answer is a 303 to the client's redirect URI with `code`, `state` and `iss`.
struct AuthorizationController: RouteCollection {
    let clients: ClientRepository
    let consents: GrantRepository
    let codes: AuthorizationCodeRepository
    let catalog: OAuthScopeCatalog
    let issuer: ServedIssuer
    let loginPages: LoginPagesController

    func boot(routes: any RoutesBuilder) throws {
        let pages = routes.grouped(PageErrorMiddleware())
        pages.get("oauth", "authorize", use: authorize)
        pages.post("oauth", "authorize", use: authorize)
        pages.post("oauth", "consent", use: decide)
    }

    func authorize(_ request: Request) async throws -> Response {
        return try await checking(try AuthorizationParameters(of: request)) { authorization in
            // prompt=login shows the form whatever the cookie proves: no lookup for it; a
            // sign-in older than max_age is as good as none.
            guard !authorization.prompts.contains(.login), let session = try await loginPages.current(request),
                !authorization.openID.needsFreshLogin(authTime: session.authTime)
            else {
                if authorization.prompts.contains(.silent) { return redirect(authorization, .loginRequired) }
                return signInPage(request, for: authorization)
            }
            return try await answer(authorization, session: session, consentGiven: false)
        }
    }

    /// The consent form's decision: checked against the session's CSRF token, the request it
    /// carries checked afresh.
    func decide(_ request: Request) async throws -> Response {
        let fields = try FormFields(form: request)
        try CSRFToken.check(fields, boundTo: request.cookie(loginPages.cookies.sessionName))
        return try await checking(AuthorizationParameters(fields.parameters.pairs)) { authorization in
            guard let session = try await loginPages.current(request) else {
                // Signed out (or expired) since the page was shown: sign in again, then decide again.
                return signInPage(request, for: authorization)
            }
            switch try fields.single("decision", maxBytes: 16) {
            case "approve":
                guard mayHave(authorization, session) else { return redirect(authorization, Self.adminOnly) }
                try await consents.approve(authorization.scopes, userID: session.user.id, clientID: authorization.client.id)
                return try await answer(authorization, session: session, consentGiven: true)
            case "deny":
                return redirect(authorization, .accessDenied)
            default:
                throw Abort(.badRequest, reason: "The decision must be approve or deny.")
            }
        }
    }

    /// Checks the request `parameters` carry, client first (a 400 page), then the rest (a
    /// redirect to the client when wrong), and answers it with `next`.
    private func checking(
        _ parameters: AuthorizationParameters, _ next: (AuthorizationRequest) async throws -> Response
    ) async throws -> Response {
        let target = try await AuthorizationClient.find(parameters, in: clients)
        let authorization: AuthorizationRequest
        do {
            authorization = try AuthorizationRequest(parameters, target: target, catalog: catalog, issuer: issuer.current)
        } catch {
            let state = AuthorizationRequest.state(of: parameters)
            return PageResponse.redirect(to: AuthorizationRequest.redirect(error, to: target, state: state, issuer: issuer.current))
        }
        return try await next(authorization)
    }

    /// The sign-in form, returning to the request afterwards.
    private func signInPage(_ request: Request, for authorization: AuthorizationRequest) -> Response {
        loginPages.loginPage(request, returnTo: authorization.parameters.returnPath, context: Self.context(for: authorization.target)).response
    }

    /// The code, or the consent page when the user must still approve.
    private func answer(_ authorization: AuthorizationRequest, session: BrowserSession, consentGiven: Bool) async throws -> Response {
        guard mayHave(authorization, session) else { return redirect(authorization, Self.adminOnly) }
        if !authorization.client.trusted && !consentGiven {
            let approved = try await consents.approved(userID: session.user.id, clientID: authorization.client.id)
            if authorization.prompts.contains(.consent) || !Set(authorization.scopes).isSubset(of: approved) {
                if authorization.prompts.contains(.silent) { return redirect(authorization, .consentRequired) }
                return consentPage(authorization, session: session, approved: approved)
            }
        }
        let code = try await codes.issue(for: authorization, session: session)
        let location = authorization.target.redirect([(name: "code", value: code)], state: authorization.state, issuer: issuer.current)
        var headers = HTTPHeaders()
        headers.setCookie(loginPages.cookies.session(session))  // what `sliding` does for a page
        return PageResponse.redirect(to: location, headers: headers)
    }

    /// The consent page, asking for the union of what was approved before and what is asked now.
    private func consentPage(_ authorization: AuthorizationRequest, session: BrowserSession, approved: Set<String>) -> Response {
        let asked = Set(authorization.scopes)
        let union = catalog.allScopes.filter { asked.contains($0) || approved.contains($0) }
        let form = ConsentForm(
            clientName: authorization.client.name, username: session.user.username,
            scopes: union.map { (name: $0, words: catalog.words(for: $0) ?? $0) },
            csrfToken: session.csrfToken, parameters: authorization.parameters.pairs)
        let page = PageResponse(html: form.html, policy: Self.context(for: authorization.target).policy)
        return loginPages.sliding(page, session).response
    }

    /// False when the request asks for `clients:write` and the user is no administrator (the
    /// flag came with the session's row: no second read of the user).
    private func mayHave(_ authorization: AuthorizationRequest, _ session: BrowserSession) -> Bool {
        session.isAdmin || !authorization.scopes.contains(Scope.clientsWrite.rawValue)
    }

    private static let adminOnly = AuthorizationError.invalidScope("'clients:write' is granted to administrators only.")

    private func redirect(_ authorization: AuthorizationRequest, _ error: AuthorizationError) -> Response {
        PageResponse.redirect(to: authorization.redirect(error, issuer: issuer.current))
    }

    /// A login or consent page for `target`: its name, and a CSP that lets the form's
    /// redirects reach its redirect URI.
    static func context(for target: AuthorizationClient) -> LoginContext {
        LoginContext(
            clientName: target.client.name,
            policy: ContentSecurityPolicy(formTargets: ContentSecurityPolicy.source(of: target.redirectURI).map { [$0] } ?? []))
    }

    /// The context of a login whose `return_to` is an authorization request; plain otherwise
    /// (an invalid request is refused when the browser returns to it, not here).
    static func loginContext(returnTo: String?, clients: ClientRepository) async throws -> LoginContext {
        guard let returnTo, let parameters = AuthorizationParameters(returnTo: returnTo) else { return .plain }
        guard let target = try? await AuthorizationClient.find(parameters, in: clients) else { return .plain }
        return context(for: target)
    }
}
