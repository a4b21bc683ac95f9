import Foundation
import Web

/// `/api/users/me`: the caller's own account — who they are, where they are logged in, and
/// their password. Everything but `GET /me` needs the `account` scope.
struct AccountController: RouteCollection {
    let sessions: SessionRepository
    /// The current password and, with TOTP on, a code (`AccountChangeProof`).
    let proofs: AccountChangeProof
    let passwords: PasswordReplacement
    let auth: BearerAuth
    let audit: AuditLog
    /// Where the caller's email address stands, for `GET /me`.
    let emails: AccountEmails

    func boot(routes: any RoutesBuilder) throws {
        let me = routes.grouped("api", "users", "me")
        auth.guarded(me, needing: nil).get(use: show)
        let account = auth.sessionGuarded(me, needing: .account)
        account.get("sessions", use: listSessions)
        account.delete("sessions", ":sessionID", use: endSession)
        account.put("password", use: changePassword)
    }

    /// Who the token belongs to; the email address only to a token holding `account` or
    /// OpenID Connect's `email`, so another application's token does not learn it.
    func show(_ request: Request) async throws -> AccountProfile {
        let identity = try request.auth.require(BearerIdentity.self)
        let user = identity.user
        guard identity.scopeNames.contains(Scope.account.rawValue) || identity.scopeNames.contains(OpenIDScope.email.rawValue) else {
            return AccountProfile(id: user.id, name: user.name, username: user.username)
        }
        return try await emails.profile(of: user)
    }

    func listSessions(_ request: Request) async throws -> Page<SessionInfo> {
        let identity = try request.auth.require(BearerIdentity.self)
        let page = try PageRequest.from(request, for: .sessions)
        return try await sessions.live(of: identity.user.id, current: identity.sessionID, page: page)
    }

    func endSession(_ request: Request) async throws -> HTTPStatus {
        let identity = try request.auth.require(BearerIdentity.self)
        let id = try request.parameters.require("sessionID", as: UUID.self)
        guard try await sessions.end(id, of: identity.user.id) else { throw Abort(.notFound, reason: "No session with that id.") }
        audit.record(.sessionEnded, request, userID: identity.user.id, sessionID: id)
        return .noContent
    }

    /// Needs the current password (a stolen token alone cannot take the account over; wrong
    /// guesses count toward the login throttle, as a login's do, and are audited), and with TOTP
    /// on a code or a recovery code as well (no password path around the second factor). Every
    /// other session ends; the calling one and the personal access tokens stay (a reset ends those).
    /// That proof is a re-authentication as strong as a login: it renews the session's (RFC 9470),
    /// so no recent sign-in is asked besides.
    func changePassword(_ request: Request) async throws -> HTTPStatus {
        let identity = try request.auth.require(BearerIdentity.self)
        let body = try request.content.decode(PasswordChangeRequest.self)
        try passwords.rules.validate(body.newPassword, field: "newPassword")
        let proof = try SecondFactorInput.proof(code: body.code, recoveryCode: body.recoveryCode)
        let user = identity.user
        try await proofs.require(
            password: body.currentPassword, proof, of: user, sessionID: identity.sessionID, request, failed: .passwordChangeFailed,
            throttled: .passwordChangeThrottled)
        try await passwords.replace(
            passwordOf: user.id, with: body.newPassword, keeping: identity.sessionID, keepingPersonalAccessTokens: true,
            notice: .passwordChanged)
        audit.record(.passwordChanged, request, userID: user.id, sessionID: identity.sessionID)
        return .noContent
    }
}
