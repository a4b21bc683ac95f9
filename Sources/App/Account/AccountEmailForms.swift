import Foundation
import Web

/// The account page's email forms, each behind the browser session and its CSRF token, each
/// doing what `/api/users/me/email…` does through the same `AccountEmails`: `POST
/// /account/email` starts a change with a recent sign-in (else a fresh one first) and the
/// current password, `POST /account/email/verification` sends the link again. Done: 303 back to the page with a
/// notice. Refused: the page with the reason at the form (a 400 for an address of no valid
/// shape, the 403 of a wrong password, a 409, the throttle's 429 with `Retry-After`).
struct AccountEmailForms: RouteCollection {
    let account: AccountPageController
    let emails: AccountEmails
    let mail: MailSettings
    let currentPassword: CurrentPassword

    /// A form field longer than this is no address to explain: the 400 page.
    static let maxFieldBytes = 1024

    func boot(routes: any RoutesBuilder) throws {
        let pages = routes.grouped(PageErrorMiddleware()).grouped("account", "email")
        pages.post(use: change)
        pages.post("verification", use: resend)
    }

    func change(_ request: Request) async throws -> Response {
        guard let (fields, session) = try await account.signedInForm(request) else { return account.signInFirst(request) }
        if let fresh = account.freshSignIn(session, request) { return fresh }
        let typed = try fields.single("email", maxBytes: Self.maxFieldBytes) ?? ""
        let password = try fields.single("current_password", maxBytes: LoginPagesController.maxPasswordBytes) ?? ""
        let email: String
        do {
            email = try EmailRules.validate(typed)
        } catch let refusal as Abort {
            return try await refused(.change, session, refusal)
        }
        guard !password.isEmpty else { return try await refused(.change, session, Abort(.badRequest, reason: "Enter your current password.")) }
        try mail.requireSending()
        do {
            try await currentPassword.require(
                password, of: session.user, sessionID: session.id, request, failed: .emailChangeFailed, throttled: .emailChangeThrottled)
            try await emails.requestChange(of: session.user, to: email, sessionID: session.id, request)
        } catch let refusal as Abort where [.forbidden, .conflict, .tooManyRequests].contains(refusal.status) {
            return try await refused(.change, session, refusal)
        }
        return PageResponse.redirect(to: AccountNotice.emailChangeSent.location)
    }

    func resend(_ request: Request) async throws -> Response {
        guard let session = try await account.signedInForm(request)?.session else { return account.signInFirst(request) }
        try mail.requireSending()
        do {
            try await emails.resendVerification(of: session.user, sessionID: session.id, request)
        } catch let refusal as Abort where [.conflict, .tooManyRequests].contains(refusal.status) {
            return try await refused(.resend, session, refusal)
        }
        return PageResponse.redirect(to: AccountNotice.emailLinkSent.location)
    }

    /// The account page with `refusal`'s reason at `form`, its status and `Retry-After`.
    private func refused(_ form: EmailSection.Form, _ session: BrowserSession, _ refusal: Abort) async throws -> Response {
        let message = refusal.reason == Abort.taken("email").reason ? "Another account uses that address." : refusal.reason
        var page = try await account.page(for: session, status: refusal.status, emailFailure: .init(form: form, message: message))
        for (name, value) in refusal.headers where name.lowercased() == "retry-after" {
            page.headers.replaceOrAdd(name: name, value: value)
        }
        return page.response
    }
}
