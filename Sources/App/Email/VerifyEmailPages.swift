import Foundation
import Web

/// `GET /verify-email?token=…`, the page a verification mail links to, and `POST /verify-email`,
/// its one button, which spends the token as `POST /api/users/email/verify` does. Signed in as
/// the account the link was for, the button lands on the account page, which says so; else on
/// a page of its own. A refusal is a page with the reason (the link used or expired, the
/// address taken by another account meanwhile).
struct VerifyEmailPages: RouteCollection {
    let emails: AccountEmails
    let loginPages: LoginPagesController

    static let path = "/verify-email"

    func boot(routes: any RoutesBuilder) throws {
        let pages = routes.grouped(PageErrorMiddleware())
        pages.get("verify-email", use: show)
        pages.post("verify-email", use: confirm)
    }

    func show(_ request: Request) async throws -> Response {
        let token = try FormFields(query: request).single("token", maxBytes: EmailVerificationTokens.maxTokenBytes) ?? ""
        guard !token.isEmpty else { throw Self.incomplete }
        return PageResponse(html: VerifyEmailPage.confirm(token: token)).response
    }

    func confirm(_ request: Request) async throws -> Response {
        let token = try FormFields(form: request).single("token", maxBytes: EmailVerificationTokens.maxTokenBytes) ?? ""
        guard !token.isEmpty else { throw Self.incomplete }
        let owner = try await emails.verify(token: token, request)
        if let session = try await loginPages.current(request), session.user.id == owner {
            return PageResponse.redirect(to: AccountNotice.emailVerified.location)
        }
        return PageResponse(html: VerifyEmailPage.confirmed).response
    }

    static let incomplete = Abort(
        .badRequest, reason: "This link is incomplete. Open it from the mail again, or copy the whole link into the address bar.")
}
