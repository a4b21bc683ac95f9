import Foundation
import Web

/// The current password an account change must give (a password change, disabling TOTP, new
/// recovery codes): a stolen token alone cannot take the account over. Checked through
/// `PasswordVerifier`, so wrong guesses count toward the login throttle as a login's do.
struct CurrentPassword: Sendable {
    let verifier: PasswordVerifier
    let audit: AuditLog

    /// Throws 403 when `password` is not `identity`'s (audited as `failed`), or the throttle's
    /// 429 (audited as `throttled`).
    @discardableResult
    func require(
        _ password: String, of identity: BearerIdentity, _ request: Request, failed: AuditLog.Event, throttled: AuditLog.Event
    ) async throws -> User {
        try await require(password, of: identity.user, sessionID: identity.sessionID, request, failed: failed, throttled: throttled)
    }

    /// The same for `user` signed in as `sessionID` (a browser session's, on the account page):
    /// the user as the check found them (their password hash as stored now).
    @discardableResult
    func require(
        _ password: String, of user: User, sessionID: UUID?, _ request: Request, failed: AuditLog.Event, throttled: AuditLog.Event
    ) async throws -> User {
        let outcome = try await verifier.verify(password, username: user.username, address: request.clientAddress)
        switch outcome.verdict {
        case .accepted(let found, _): return found
        case .rejected:
            audit.record(failed, request, userID: user.id, sessionID: sessionID, username: outcome.username)
            throw Abort(.forbidden, reason: "The current password is wrong.")
        case .throttled(let wait):
            audit.record(throttled, request, userID: user.id, sessionID: sessionID, username: outcome.username)
            throw LoginThrottle.refusal(retryAfter: wait)
        }
    }
}
