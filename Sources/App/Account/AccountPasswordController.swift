import Foundation
import Web

/// `POST /account/password`, the account page's password change: the same rules, proof and
/// replacement as `PUT /api/users/me/password` (`AccountChangeProof`: the current password
/// throttled as a login's, a code with TOTP on; `PasswordReplacement`: every other session
/// ended, the owner's notice queued), behind the browser session and its CSRF token. Refused,
/// the account page again with the reason in the open form; done, 303 back with a notice.
struct AccountPasswordController: RouteCollection {
    let account: AccountPageController
    let proofs: AccountChangeProof
    let passwords: PasswordReplacement
    let audit: AuditLog

    func boot(routes: any RoutesBuilder) throws {
        routes.grouped(PageErrorMiddleware()).grouped("account").post("password", use: change)
    }

    func change(_ request: Request) async throws -> Response {
        guard let (fields, session) = try await account.signedInForm(request) else { return account.signInFirst(request) }
        let limit = LoginPagesController.maxPasswordBytes
        let current = try fields.single("current_password", maxBytes: limit) ?? ""
        let new = try fields.single("new_password", maxBytes: limit) ?? ""
        let repeated = try fields.single("repeat_password", maxBytes: limit) ?? ""
        let typed = try fields.single("code", maxBytes: SecondFactorInput.maxBytes) ?? ""
        func refused(_ status: HTTPStatus, _ message: String, headers: HTTPHeaders = [:]) async throws -> Response {
            var page = try await account.page(for: session, status: status, passwordFailure: message)
            for (name, value) in headers { page.headers.replaceOrAdd(name: name, value: value) }
            return page.response
        }
        guard !current.isEmpty else { return try await refused(.badRequest, "Enter your current password.") }
        do {
            try passwords.rules.validate(new, field: "new password")
        } catch {
            return try await refused(.badRequest, error.reason)
        }
        guard new == repeated else { return try await refused(.badRequest, "The two new passwords differ: type the new one twice.") }
        let proof = typed.isEmpty ? nil : AccountTOTPController.proof(typed)
        guard typed.isEmpty || proof != nil else {
            return try await refused(.badRequest, "Enter the 6-digit code from your authenticator app, or one of your recovery codes.")
        }
        do {
            try await proofs.require(
                password: current, proof, of: session.user, sessionID: session.id, request, failed: .passwordChangeFailed,
                throttled: .passwordChangeThrottled)
        } catch let refusal as Abort where [.forbidden, .tooManyRequests].contains(refusal.status) {
            var headers = refusal.headers
            headers.remove(name: "WWW-Authenticate")
            return try await refused(refusal.status, refusal.reason, headers: headers)
        }
        try await passwords.replace(
            passwordOf: session.user.id, with: new, keeping: session.id, keepingPersonalAccessTokens: true, notice: .passwordChanged)
        audit.record(.passwordChanged, request, userID: session.user.id, sessionID: session.id)
        return PageResponse.redirect(to: AccountNotice.passwordChanged.location)
    }
}
