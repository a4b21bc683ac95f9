import Foundation
import Web

/// The account page's forms for two-step sign-in (TOTP), each behind the browser session and
/// its CSRF token, each doing what `/api/users/me/mfa…` does through the same `TOTPManagement`:
/// `POST /account/totp` starts an enrolment (the QR code page), `/account/totp/confirm` turns
/// it on (the recovery codes page, once): both need a recent sign-in (else a fresh one, then
/// back); `/account/totp/disable` and `/account/recovery-codes` need the current password and
/// a code or a recovery code, which is one.
struct AccountTOTPController: RouteCollection {
    let account: AccountPageController
    let management: TOTPManagement

    func boot(routes: any RoutesBuilder) throws {
        let pages = routes.grouped(PageErrorMiddleware()).grouped("account")
        pages.post("totp", use: start)
        pages.post("totp", "confirm", use: confirm)
        pages.post("totp", "disable", use: disable)
        pages.post("recovery-codes", use: renewRecoveryCodes)
    }

    func start(_ request: Request) async throws -> Response {
        guard let session = try await account.signedInForm(request)?.session else { return account.signInFirst(request) }
        if let fresh = account.freshSignIn(session, request) { return fresh }
        let enrolment = try await management.start(for: session.user)
        return enrolmentPage(enrolment, session)
    }

    func confirm(_ request: Request) async throws -> Response {
        guard let (fields, session) = try await account.signedInForm(request) else { return account.signInFirst(request) }
        if let fresh = account.freshSignIn(session, request) { return fresh }
        let typed = try fields.single("code", maxBytes: SecondFactorInput.maxBytes) ?? ""
        /// The enrolment page again, with `error`: the secret is still the pending one.
        func again(_ status: HTTPStatus, _ error: String) async throws -> Response {
            guard let pending = try await management.pending(for: session.user) else { throw Self.noLongerPending }
            return enrolmentPage(pending, session, status: status, error: error)
        }
        guard let code = try? SecondFactorInput.code(typed) else {
            return try await again(.badRequest, "Enter the 6 digits your authenticator app shows for TIL.")
        }
        do {
            let codes = try await management.confirm(code, for: session.user, sessionID: session.id, request)
            let page = RecoveryCodesPage(codes: codes, isNewSet: false)
            return account.loginPages.sliding(PageResponse(html: page.html), session).response
        } catch let refusal as Abort where refusal.status == .forbidden {
            return try await again(.forbidden, "That code does not match. Check that the app's clock is right, and enter the code it shows now.")
        } catch let refusal as Abort where refusal.status == .conflict {
            throw Self.noLongerPending
        }
    }

    func disable(_ request: Request) async throws -> Response {
        guard let (fields, session) = try await account.signedInForm(request) else { return account.signInFirst(request) }
        if let refused = try await proven(fields, session, form: .disable, request) { return refused }
        try await management.turnOff(for: session.user, sessionID: session.id, request)
        return PageResponse.redirect(to: AccountNotice.totpDisabled.location)
    }

    func renewRecoveryCodes(_ request: Request) async throws -> Response {
        guard let (fields, session) = try await account.signedInForm(request) else { return account.signInFirst(request) }
        if let refused = try await proven(fields, session, form: .recoveryCodes, request) { return refused }
        let codes = try await management.renewRecoveryCodes(for: session.user, sessionID: session.id, request)
        return account.loginPages.sliding(PageResponse(html: RecoveryCodesPage(codes: codes, isNewSet: true).html), session).response
    }

    /// Nil once the current password and the code prove the change; otherwise the account page
    /// with the refusal in `form`'s place (a 400 for a code of no known shape, the 403 of a
    /// wrong password or code, the throttle's 429 with `Retry-After`, a 409 when TOTP is off).
    private func proven(
        _ fields: FormFields, _ session: BrowserSession, form: TOTPSection.Form, _ request: Request
    ) async throws -> Response? {
        let password = try fields.single("current_password", maxBytes: LoginPagesController.maxPasswordBytes) ?? ""
        let typed = try fields.single("code", maxBytes: SecondFactorInput.maxBytes) ?? ""
        func refused(_ status: HTTPStatus, _ message: String, headers: HTTPHeaders = [:]) async throws -> Response {
            var page = try await account.page(for: session, status: status, totpFailure: .init(form: form, message: message))
            for (name, value) in headers { page.headers.replaceOrAdd(name: name, value: value) }
            return page.response
        }
        guard !password.isEmpty else { return try await refused(.badRequest, "Enter your current password.") }
        guard let proof = Self.proof(typed) else {
            return try await refused(.badRequest, "Enter the 6-digit code from your authenticator app, or one of your recovery codes.")
        }
        do {
            try await management.prove(password: password, proof, of: session.user, sessionID: session.id, needingTOTP: true, request)
            return nil
        } catch let refusal as Abort where [.forbidden, .tooManyRequests, .conflict].contains(refusal.status) {
            var headers = refusal.headers
            headers.remove(name: "WWW-Authenticate")
            return try await refused(refusal.status, refusal.reason, headers: headers)
        }
    }

    /// What one field holds: six digits are a code from the app, anything else that reads as a
    /// recovery code is one; nil for neither.
    static func proof(_ typed: String) -> SecondFactorProof? {
        if let code = try? SecondFactorInput.code(typed) { return .code(code) }
        if let recovery = try? SecondFactorInput.recoveryCode(typed) { return .recoveryCode(recovery) }
        return nil
    }

    static let noLongerPending = Abort(
        .conflict, reason: "This setup is no longer waiting for a code: two-step sign-in was turned on meanwhile, or set up again elsewhere. Open your account page to see where it stands.")

    private func enrolmentPage(
        _ enrolment: TOTPEnrolment, _ session: BrowserSession, status: HTTPStatus = .ok, error: String? = nil
    ) -> Response {
        let page = TOTPEnrolmentPage(
            qrCodeSVG: TOTPEnrolmentPage.svg(enrolment.qrCodeSVG), secret: enrolment.secret, csrfToken: session.csrfToken, error: error)
        return account.loginPages.sliding(PageResponse(status: status, html: page.html), session).response
    }
}
