import Foundation
import Web

/// The verification page of the device flow (RFC 8628 §3.3): `GET /device` shows a form for
/// the user code (prefilled by `?user_code=`), behind the same sign-in as the authorization
/// endpoint; `POST /device` finds the pending code and shows the consent page for its client
/// and scopes, every time, trusted client or not (§5.4: the user must see what a device they
/// may not hold asks for); `POST /device/consent` records approve or deny once.
///
/// An approval is remembered as the authorization endpoint's consent is (`oauth_grants`), so
/// the device's client is listed among the user's applications and withdrawn there.
///
/// A user code is short enough to guess at, so failures are throttled per browser session and
/// per address in PostgreSQL (`FailureThrottle`): past the limit the page says how long to wait
/// (429), whatever the code.
struct DeviceVerificationController: RouteCollection {
    let codes: DeviceCodeRepository
    let consents: GrantRepository
    let catalog: OAuthScopeCatalog
    let loginPages: LoginPagesController
    let throttle: FailureThrottle

    func boot(routes: any RoutesBuilder) throws {
        let pages = routes.grouped(PageErrorMiddleware())
        pages.get("device", use: show)
        pages.post("device", use: enter)
        pages.post("device", "consent", use: decide)
    }

    func show(_ request: Request) async throws -> Response {
        let typed = try FormFields(query: request).single("user_code", maxBytes: UserCode.maxInputBytes) ?? ""
        let shown = UserCode.normalized(typed).map(UserCode.display) ?? ""
        guard let session = try await loginPages.current(request) else { return signInPage(request, userCode: shown) }
        return page(DeviceCodeForm(csrfToken: session.csrfToken, username: session.user.username, userCode: shown), session)
    }

    func enter(_ request: Request) async throws -> Response {
        let fields = try FormFields(form: request)
        try CSRFToken.check(fields, boundTo: request.cookie(loginPages.cookies.sessionName))
        let typed = try fields.single("user_code", maxBytes: UserCode.maxInputBytes) ?? ""
        guard let session = try await loginPages.current(request) else { return signInPage(request, userCode: "") }
        try await refuseIfThrottled(request, session)
        func again(_ error: String) -> Response {
            page(DeviceCodeForm(csrfToken: session.csrfToken, username: session.user.username, userCode: typed, error: error), session,
                 status: .badRequest)
        }
        guard let userCode = UserCode.normalized(typed) else {
            return again("That is not a code: a code is eight letters, like BCDF-GHJK.")
        }
        guard let pending = try await codes.pending(userCode: userCode) else {
            try await recordFailure(request, session)
            return again("No device is waiting for that code. Check it, or start again on the device: codes expire.")
        }
        return consentPage(pending, session)
    }

    func decide(_ request: Request) async throws -> Response {
        let fields = try FormFields(form: request)
        try CSRFToken.check(fields, boundTo: request.cookie(loginPages.cookies.sessionName))
        guard let session = try await loginPages.current(request) else { return signInPage(request, userCode: "") }
        try await refuseIfThrottled(request, session)
        guard let userCode = UserCode.normalized(try fields.single("user_code", maxBytes: UserCode.maxInputBytes) ?? "") else {
            throw Abort(.badRequest, reason: "The form carries no device code. Start again on the device.")
        }
        let approve: Bool
        switch try fields.single("decision", maxBytes: 16) {
        case "approve": approve = true
        case "deny": approve = false
        default: throw Abort(.badRequest, reason: "The decision must be approve or deny.")
        }
        let pending = try await codes.pending(userCode: userCode)
        if approve, let pending, pending.scopes.contains(Scope.clientsWrite.rawValue), !session.isAdmin {
            throw Abort(.forbidden, reason: "The device asks for 'clients:write', which only administrators may grant.")
        }
        guard let pending,
            try await codes.decide(userCode: userCode, approve: approve, userID: session.user.id, authTime: session.authTime)
        else {
            try await recordFailure(request, session)
            throw Abort(.badRequest, reason: "No device is waiting for that code any more: it was approved, denied or expired. Start again on the device.")
        }
        if approve { try await consents.approve(pending.scopes, userID: session.user.id, clientID: pending.client.id) }
        let page = approve
            ? MessagePage.notice(title: "Device connected", "You approved the device. Go back to it: it signs in by itself.")
            : MessagePage.notice(title: "Device refused", "You denied the device. It gets no access to your account.")
        return loginPages.sliding(page, session).response
    }

    /// The consent page for `pending`, whatever the client (trusted or not) and earlier grants.
    private func consentPage(_ pending: DeviceCodeRepository.Pending, _ session: BrowserSession) -> Response {
        let form = ConsentForm(
            clientName: pending.client.name, username: session.user.username,
            scopes: catalog.allScopes.filter(pending.scopes.contains).map { (name: $0, words: catalog.words(for: $0) ?? $0) },
            csrfToken: session.csrfToken, parameters: [(name: "user_code", value: UserCode.display(pending.userCode))],
            action: "/device/consent",
            note: "<p>Only allow this if you started it yourself: the device shows the code <strong class=\"user-code\">\(UserCode.display(pending.userCode))</strong>.</p>\n")
        return loginPages.sliding(PageResponse(html: form.html), session).response
    }

    /// The sign-in form, returning to the verification page (with the code, when it was read).
    private func signInPage(_ request: Request, userCode: String) -> Response {
        let path = DeviceAuthorizationController.verificationPath
        let returnTo = userCode.isEmpty ? path : QueryEncoding.appending([(name: "user_code", value: userCode)], to: path)
        return loginPages.loginPage(request, returnTo: returnTo, context: .plain).response
    }

    private func page(_ form: DeviceCodeForm, _ session: BrowserSession, status: HTTPStatus = .ok) -> Response {
        loginPages.sliding(PageResponse(status: status, html: form.html), session).response
    }

    /// The throttle's key for this browser session.
    private func key(_ session: BrowserSession) -> String { "device:" + session.id.uuidString }

    private func refuseIfThrottled(_ request: Request, _ session: BrowserSession) async throws {
        if let wait = try await throttle.wait(key: key(session), address: request.clientAddress) {
            throw Self.throttled(wait)
        }
    }

    private func recordFailure(_ request: Request, _ session: BrowserSession) async throws {
        if let wait = try await throttle.recordFailure(key: key(session), address: request.clientAddress) {
            throw Self.throttled(wait)
        }
    }

    private static func throttled(_ seconds: Double) -> Abort {
        .tooMany("wrong codes from this browser or network", retryAfter: seconds)
    }
}
