import Foundation
import Web

/// The API of account email addresses: `PUT /api/users/me/email` starts a change (the current
/// password, then a link to the new address), `POST /api/users/me/email/verification` sends the
/// link again, both with the `account` scope; `POST /api/users/email/verify` spends a link's
/// token, needing nothing else (the token is the proof). `GET /api/users/me` shows where the
/// address stands (`AccountController`).
struct EmailController: RouteCollection {
    let emails: AccountEmails
    let mail: MailSettings
    let currentPassword: CurrentPassword
    let recentAuthentication: RecentAuthentication
    let auth: BearerAuth

    func boot(routes: any RoutesBuilder) throws {
        let me = auth.sessionGuarded(routes.grouped("api", "users", "me", "email"), needing: .account)
        me.put(use: change)
        me.post("verification", use: resend)
        routes.grouped("api", "users", "email").post("verify", use: verify)
    }

    /// 202 with the account's profile, `pendingEmail` the new address. The old address stays
    /// in force until the link sent to the new one is followed. Needs a recent sign-in (RFC
    /// 9470's step-up challenge otherwise) and the current password.
    func change(_ request: Request) async throws -> ContentResponse<AccountProfile> {
        let identity = try request.auth.require(BearerIdentity.self)
        let body = try request.content.decode(EmailChangeRequest.self)
        let email = try EmailRules.validate(body.email)
        try mail.requireSending()
        // pat: SessionRequired's refusal of a personal access token goes here.
        try await recentAuthentication.require(identity, request)
        try await currentPassword.require(
            body.currentPassword, of: identity, request, failed: .emailChangeFailed, throttled: .emailChangeThrottled)
        try await emails.requestChange(of: identity.user, to: email, sessionID: identity.sessionID, request)
        return ContentResponse(try await emails.profile(of: identity.user), status: .accepted)
    }

    func resend(_ request: Request) async throws -> HTTPStatus {
        let identity = try request.auth.require(BearerIdentity.self)
        try mail.requireSending()
        try await emails.resendVerification(of: identity.user, sessionID: identity.sessionID, request)
        return .noContent
    }

    func verify(_ request: Request) async throws -> HTTPStatus {
        let body = try request.content.decode(EmailVerificationRequest.self)
        _ = try await emails.verify(token: body.token, request)
        return .noContent
    }
}
