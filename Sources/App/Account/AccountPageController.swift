import Foundation
import Web

/// `GET /account` and the forms of its sessions and applications sections, behind the browser
/// session: without one, the sign-in page, returning here. Each form posts with the CSRF token
/// bound to the session's cookie and answers 303 back to the page with a notice, so a reload
/// never repeats it.
struct AccountPageController: RouteCollection {
    let loginPages: LoginPagesController
    let sessions: SessionRepository
    let grants: GrantRepository
    let secondFactors: SecondFactors
    let catalog: OAuthScopeCatalog
    let passkeys: PasskeyRepository
    let tokens: PersonalAccessTokenRepository
    /// `PAT_MAX_TTL`, the longest expiry the tokens section offers.
    let tokenMaxLifetime: Duration
    let audit: AuditLog
    /// What the forms that change how the account signs in ask first (`freshSignIn`).
    let recentAuthentication: RecentAuthentication
    let emails: AccountEmails

    static let path = "/account"

    func boot(routes: any RoutesBuilder) throws {
        let account = routes.grouped(PageErrorMiddleware()).grouped("account")
        account.get(use: show)
        account.post("sessions", ":sessionID", "end", use: endSession)
        account.post("apps", ":clientID", "revoke", use: revokeApp)
    }

    func show(_ request: Request) async throws -> Response {
        guard let session = try await loginPages.current(request) else { return signInFirst(request) }
        let notice = try FormFields(query: request).single("notice", maxBytes: 64).flatMap(AccountNotice.init(rawValue:))
        return try await page(for: session, notice: notice).response
    }

    /// The whole page for `session`, with `notice` above the sections, or a refused form of
    /// the TOTP, password or email section.
    func page(
        for session: BrowserSession, notice: AccountNotice? = nil, status: HTTPStatus = .ok, totpFailure: TOTPSection.Failure? = nil,
        passwordFailure: String? = nil, emailFailure: EmailSection.Failure? = nil
    ) async throws -> PageResponse {
        let userID = session.user.id
        async let profile = emails.profile(of: session.user)
        async let live = sessions.live(of: userID, current: session.id)
        async let consented = grants.grants(of: userID)
        async let factors = secondFactors.status(of: userID)
        async let personalTokens = tokens.list(of: userID)
        let held = try await factors
        let totp = TOTPSection(
            isOn: held.totp, recoveryCodesLeft: held.recoveryCodesRemaining, csrfToken: session.csrfToken, failure: totpFailure)
        let catalog = catalog
        let page = AccountPage(
            username: session.user.username, csrfToken: session.csrfToken, notice: notice,
            sections: [
                EmailSection(profile: try await profile, csrfToken: session.csrfToken, failure: emailFailure).html,
                SessionsSection(sessions: try await live.items, csrfToken: session.csrfToken).html,
                AppsSection(grants: try await consented, words: { catalog.words(for: $0) ?? $0 }, csrfToken: session.csrfToken).html,
                PasswordSection(totpOn: held.totp, csrfToken: session.csrfToken, failure: passwordFailure).html,
                totp.html,
                PasskeysSection(passkeys: try await passkeys.list(of: userID), csrfToken: session.csrfToken).html,
                TokensSection(tokens: try await personalTokens, csrfToken: session.csrfToken, maxLifetime: tokenMaxLifetime).html,
            ])
        var response = PageResponse(status: status, html: page.html)
        response.policy.runsScript = true
        return loginPages.sliding(response, session)
    }

    func endSession(_ request: Request) async throws -> Response {
        guard let session = try await signedInForm(request)?.session else { return signInFirst(request) }
        let id = try request.parameters.require("sessionID", as: UUID.self)
        guard try await sessions.end(id, of: session.user.id) else {
            throw Abort(.notFound, reason: "That session has already ended, or is not yours.")
        }
        audit.record(.sessionEnded, request, userID: session.user.id, sessionID: id)
        guard id != session.id else {
            // This browser's own session: it is signed out now.
            var page = MessagePage.notice(title: "Signed out", "You are signed out of TIL.")
            page.headers.setCookie(loginPages.cookies.removingSession)
            return page.response
        }
        return PageResponse.redirect(to: AccountNotice.sessionEnded.location)
    }

    func revokeApp(_ request: Request) async throws -> Response {
        guard let session = try await signedInForm(request)?.session else { return signInFirst(request) }
        let clientID = try request.parameters.require("clientID", as: String.self)
        guard try await grants.withdraw(clientID: clientID, of: session.user.id) else {
            throw Abort(.notFound, reason: "That application has no access to your account.")
        }
        audit.record(.grantWithdrawn, request, userID: session.user.id)
        return PageResponse.redirect(to: AccountNotice.appRevoked.location)
    }

    /// A form post of the account page: its fields, once the CSRF token proves it came from a
    /// page shown to this browser's session (else the 403 page), and the session; nil when
    /// that session has ended since (the caller shows the sign-in page).
    func signedInForm(_ request: Request) async throws -> (fields: FormFields, session: BrowserSession)? {
        let fields = try FormFields(form: request)
        try CSRFToken.check(fields, boundTo: request.cookie(loginPages.cookies.sessionName))
        guard let session = try await loginPages.current(request) else { return nil }
        return (fields, session)
    }

    /// Nil when `session` signed in within `REAUTH_WINDOW`; else the redirect to a fresh
    /// sign-in, which comes back to the account page saying the change can be made now.
    func freshSignIn(_ session: BrowserSession, _ request: Request) -> Response? {
        recentAuthentication.freshSignIn(session, returnTo: AccountNotice.signedInAgain.location, request)
    }

    /// The sign-in page, which comes back to the account page.
    func signInFirst(_ request: Request) -> Response {
        loginPages.loginPage(request, returnTo: Self.path, context: .plain).response
    }
}
