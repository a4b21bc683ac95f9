import Web

/// The pages of a forgotten password, for a visitor who is not signed in: `/forgot-password`
/// (the login a link is asked for), `/reset-password?token=…` (the link's page: the new
/// password) and `/reset-password/mfa` (the code step, for an account with two-step sign-in).
/// They do what the API does (`PasswordResetRequests`, `PasswordResetCompletion`), and every
/// form carries a CSRF token bound to the pre-login cookie, as the sign-in form's is. No
/// script runs on them.
struct PasswordResetPages: RouteCollection {
    let requests: PasswordResetRequests
    let completion: PasswordResetCompletion
    let mail: MailSettings
    let cookies: BrowserCookies

    static let forgotPath = "/forgot-password"
    static let resetPath = "/reset-password"
    static let codePath = "/reset-password/mfa"
    static let maxPasswordBytes = 1024

    func boot(routes: any RoutesBuilder) throws {
        let pages = routes.grouped(PageErrorMiddleware())
        pages.get("forgot-password", use: showForgot)
        pages.post("forgot-password", use: requestLink)
        pages.get("reset-password", use: showReset)
        pages.post("reset-password", use: setPassword)
        pages.post("reset-password", "mfa", use: completeSecondStep)
    }

    func showForgot(_ request: Request) async throws -> Response {
        page(request) { ForgotPasswordForm(csrfToken: $0).html }
    }

    func requestLink(_ request: Request) async throws -> Response {
        let fields = try FormFields(form: request)
        try CSRFToken.check(fields, boundTo: request.cookie(cookies.preLoginName))
        let login = try fields.single("login", maxBytes: PasswordResetRequests.maxLoginBytes) ?? ""
        func again(_ status: HTTPStatus, _ error: String, headers: HTTPHeaders = [:]) -> Response {
            page(request, status: status, headers: headers) { ForgotPasswordForm(csrfToken: $0, login: login, error: error).html }
        }
        try mail.requireSending()
        do {
            try Validation.text(login, field: "login", max: PasswordResetRequests.maxLoginBytes)
            try await requests.request(login: login, request)
        } catch let refusal as Abort where refusal.status == .badRequest {
            return again(.badRequest, "Enter your username or your email address.")
        } catch let refusal as Abort where refusal.status == .tooManyRequests {
            return again(.tooManyRequests, refusal.reason, headers: refusal.headers)
        }
        return MessagePage.notice(title: "Check your email", PasswordResetController.accepted(lifetime: requests.settings.ttlInWords).message)
            .response
    }

    func showReset(_ request: Request) async throws -> Response {
        let token = try FormFields(query: request).single("token", maxBytes: PasswordResetRepository.maxTokenBytes) ?? ""
        guard let account = try await completion.account(resetBy: token) else { return Self.linkGone }
        return page(request) { ResetPasswordForm(csrfToken: $0, token: token, username: account.username).html }
    }

    func setPassword(_ request: Request) async throws -> Response {
        let fields = try FormFields(form: request)
        try CSRFToken.check(fields, boundTo: request.cookie(cookies.preLoginName))
        let token = try fields.single("token", maxBytes: PasswordResetRepository.maxTokenBytes) ?? ""
        let password = try fields.single("new_password", maxBytes: Self.maxPasswordBytes) ?? ""
        guard let account = try await completion.account(resetBy: token) else { return Self.linkGone }
        if let refused = Self.refusal(of: password, by: completion.passwords.rules) {
            return page(request, status: .badRequest) {
                ResetPasswordForm(csrfToken: $0, token: token, username: account.username, error: refused).html
            }
        }
        do {
            switch try await completion.begin(token: token, newPassword: password, request) {
            case .done:
                return Self.done
            case .secondFactorRequired(let mfaToken, let methods):
                return codeStep(request, token: token, mfaToken: mfaToken, offersRecoveryCode: methods.contains(.recoveryCode))
            }
        } catch PasswordResetRefusal.tokenGone {
            return Self.linkGone
        }
    }

    func completeSecondStep(_ request: Request) async throws -> Response {
        let fields = try FormFields(form: request)
        try CSRFToken.check(fields, boundTo: request.cookie(cookies.preLoginName))
        let token = try fields.single("token", maxBytes: PasswordResetRepository.maxTokenBytes) ?? ""
        let mfaToken = try fields.single("mfa_token", maxBytes: MFAChallengeRepository.maxTokenBytes) ?? ""
        let code = try fields.single("code", maxBytes: SecondFactorInput.maxBytes)
        let recoveryCode = try fields.single("recovery_code", maxBytes: SecondFactorInput.maxBytes)
        guard let account = try await completion.account(resetBy: token) else { return Self.linkGone }
        let offersRecoveryCode = try await completion.hasRecoveryCodes(account.id)
        func again(_ status: HTTPStatus, _ error: String, headers: HTTPHeaders = [:]) -> Response {
            codeStep(request, token: token, mfaToken: mfaToken, offersRecoveryCode: offersRecoveryCode, status: status, error: error, headers: headers)
        }
        let proof: SecondFactorProof
        do {
            guard let given = try SecondFactorInput.proof(code: code, recoveryCode: recoveryCode) else {
                return again(.badRequest, "Enter the code from your authenticator app.")
            }
            proof = given
        } catch let refusal as Abort where refusal.status == .badRequest {
            return again(.badRequest, recoveryCode == nil
                ? "Enter the 6 digits your authenticator app shows for TIL."
                : "Enter one of your recovery codes: \(RecoveryCode.length) letters and digits.")
        }
        do {
            try await completion.complete(token: token, newPassword: nil, mfaToken: mfaToken, proof: proof, request)
            return Self.done
        } catch let refusal as PasswordResetRefusal {
            switch refusal {
            case .tokenGone, .wrongCodeEndedReset: return Self.linkGone
            case .wrongCode: return again(.unauthorized, SecondFactors.wrongCode)
            case .mfaTokenGone:
                return page(request, status: .unauthorized) {
                    ResetPasswordForm(
                        csrfToken: $0, token: token, username: account.username, error: "This step has expired. Enter your new password again.")
                        .html
                }
            }
        } catch let refusal as Abort where refusal.status == .tooManyRequests {
            return again(.tooManyRequests, refusal.reason, headers: refusal.headers)
        }
    }

    /// Why `rules` refuse `password`, in words for the form; nil when they take it.
    private static func refusal(of password: String, by rules: PasswordRules) -> String? {
        do throws(Abort) {
            try rules.validate(password, field: "new password")
            return nil
        } catch {
            return error.reason
        }
    }

    /// The code step for the reset `token`, its mfaToken in the form.
    private func codeStep(
        _ request: Request, token: String, mfaToken: String, offersRecoveryCode: Bool, status: HTTPStatus = .ok,
        error: String? = nil, headers: HTTPHeaders = [:]
    ) -> Response {
        page(request, status: status, headers: headers) {
            ResetCodeForm(csrfToken: $0, token: token, mfaToken: mfaToken, error: error, offersRecoveryCode: offersRecoveryCode).html
        }
    }

    /// The page `render` makes with the CSRF token of the request's pre-login cookie, and that
    /// cookie (new when the request had none, renewed otherwise).
    private func page(
        _ request: Request, status: HTTPStatus = .ok, headers: HTTPHeaders = [:], _ render: (_ csrfToken: String) -> HTML
    ) -> Response {
        let (secret, cookie) = cookies.preLogin(for: request)
        var headers = headers
        headers.setCookie(cookie)
        return PageResponse(status: status, html: render(CSRFToken.token(boundTo: secret)), headers: headers).response
    }

    /// The answer for a link that no longer works, whatever the reason: the way to a new one.
    static var linkGone: Response {
        PageResponse(status: .badRequest, html: PageLayout.render(title: "This link no longer works", """
            <p class="error" role="alert">It was used, a newer link was sent, or it expired.</p>
            <p><a href="\(forgotPath)">Ask for a new link</a></p>
            """)).response
    }

    /// The answer once the password is reset: no session is started, the way to sign in.
    static var done: Response {
        PageResponse(html: PageLayout.render(title: "Password changed", """
            <p class="notice" role="status">Your new password is set, and every session of your account has ended.</p>
            <p><a href="/login">Sign in</a></p>
            """)).response
    }
}
