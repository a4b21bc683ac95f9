import Foundation
import Web

/// The proof an account change carries in its own body (a password change, turning TOTP off,
/// new recovery codes): the current password (`CurrentPassword`: throttled, audited) and, with
/// TOTP on, a code or a recovery code (`SecondFactors.verify`), so no token alone and no
/// password alone gets around the second factor. Proven, it is a re-authentication as strong as
/// a login, and is recorded as the session's (`SessionRepository.renewAuthentication`, RFC
/// 9470): such a change needs no recent sign-in besides, and the next change within
/// `REAUTH_WINDOW` none either.
struct AccountChangeProof: Sendable {
    let currentPassword: CurrentPassword
    let secondFactors: SecondFactors
    let sessions: SessionRepository

    static let factorMissing = Abort(.forbidden, reason: "TOTP is on: give 'code' (from the authenticator app) or 'recoveryCode' as well.")

    /// Checks `password` and `factor` for `user`, signed in as `sessionID`: 403 for a wrong one
    /// (audited as `failed`) or a missing factor, the throttle's 429 (audited as `throttled`).
    /// `totpOn`, when the caller knows it already, saves reading it again. True when the session's
    /// authentication was renewed (false: it ended, or the account changed, meanwhile).
    @discardableResult
    func require(
        password: String, _ factor: SecondFactorProof?, of user: User, sessionID: UUID?, totpOn: Bool? = nil, _ request: Request,
        failed: AuditLog.Event, throttled: AuditLog.Event
    ) async throws -> Bool {
        let on = if let totpOn { totpOn } else { try await secondFactors.isRequired(for: user.id) }
        let proven = try await currentPassword.require(password, of: user, sessionID: sessionID, request, failed: failed, throttled: throttled)
        var amr = ["pwd"]
        if on {
            guard let factor else { throw Self.factorMissing }
            amr += try await secondFactors.verify(factor, of: user, request) + ["mfa"]
        }
        guard let sessionID else { return false }
        return try await sessions.renewAuthentication(of: sessionID, user: proven, amr: amr)
    }
}
