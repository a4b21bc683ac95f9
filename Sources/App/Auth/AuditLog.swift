import Foundation
import Logging
import Web

/// One structured line per authentication event, at `notice`, for the people who must answer
/// "who logged in from where, and when was that token revoked". Never a password, a token or
/// a digest: only ids, the client address, the user agent, the request id and, for failed or
/// refused attempts, the username as PostgreSQL folds it (unknown names included). The user
/// agent and the username are the client's own text: `til-server`'s log handler
/// (`LogfmtLogHandler`) writes them, like every value, quoted and escaped, so they cannot
/// forge a field or a line.
struct AuditLog: Sendable {
    enum Event: String, Sendable {
        case loginSucceeded = "login.succeeded"
        case loginFailed = "login.failed"
        case loginThrottled = "login.throttled"
        case tokenRefreshed = "token.refreshed"
        case refreshReuseDetected = "refresh.reuse-detected"
        case logout = "logout"
        case logoutAll = "logout-all"
        case sessionEnded = "session.ended"
        case passwordChanged = "password.changed"
        /// The current password given to a password change was wrong.
        case passwordChangeFailed = "password.change-failed"
        /// A password change refused by the login throttle, its current password unchecked.
        case passwordChangeThrottled = "password.change-throttled"
        /// An operator set the password (`til-server users set-password`).
        case passwordSet = "password.set"
        /// An operator cleared the login throttle (`til-server users unlock`).
        case loginUnlocked = "login.unlocked"
        /// An operator made a user an administrator (`til-server users admin --grant`).
        case adminGranted = "admin.granted"
        /// An operator took the administrator role away (`til-server users admin --revoke`).
        case adminRevoked = "admin.revoked"
        /// A user withdrew an OAuth client's grant, ending its tokens for them.
        case grantWithdrawn = "grant.withdrawn"
        /// A password login stopped for its second factor (an mfaToken issued).
        case mfaRequired = "login.mfa-required"
        /// A login's second step failed: a wrong code, or an unknown, spent or expired mfaToken.
        case mfaLoginFailed = "login.mfa-failed"
        /// A login's second step succeeded (with the new session's id).
        case mfaLoginSucceeded = "login.mfa-succeeded"
        /// A wrong code given to disable TOTP, renew recovery codes or change the password.
        case secondFactorFailed = "mfa.code-failed"
        /// The current password given to disable TOTP or renew recovery codes was wrong.
        case mfaChangeFailed = "mfa.change-failed"
        /// A code (or such a current password) refused by the login throttle, unchecked.
        case secondFactorThrottled = "mfa.throttled"
        case totpEnabled = "mfa.totp-enabled"
        case totpDisabled = "mfa.totp-disabled"
        case recoveryCodeUsed = "mfa.recovery-code-used"
        case recoveryCodesRegenerated = "mfa.recovery-codes-regenerated"
        /// An operator removed a user's second factors (`til-server users mfa-reset`).
        case mfaReset = "mfa.reset"
        /// A user registered a passkey.
        case passkeyRegistered = "passkey.registered"
        case passkeyRenamed = "passkey.renamed"
        case passkeyRemoved = "passkey.removed"
        /// A passkey's sign count did not grow: the login was refused, the authenticator may be cloned.
        case passkeyCloneSuspected = "passkey.clone-suspected"
        /// A passkey stored without backup eligibility came back with it (synced after
        /// registration): accepted and recorded, a deliberate deviation from WebAuthn §7.2.
        case passkeyBackupEligibilityGained = "passkey.backup-eligibility-gained"
        /// A sensitive change refused: the session's last authentication is older than `REAUTH_WINDOW`.
        case reauthRequired = "reauth.required"
        /// `POST /api/users/me/reauth` renewed the session's authentication time.
        case reauthSucceeded = "reauth.succeeded"
        /// A re-authentication's password, code or passkey was wrong.
        case reauthFailed = "reauth.failed"
        /// A re-authentication refused by the login throttle, unchecked.
        case reauthThrottled = "reauth.throttled"
        /// A reset link was asked for: the account's id when the login names one with a verified
        /// address, else the login as sent (NFC); never the token.
        case passwordResetRequested = "password-reset.requested"
        /// The reset mail was queued in the outbox with the request's transaction.
        case passwordResetMailQueued = "password-reset.mail-queued"
        /// The account had its mails for the hour: nothing queued (the answer is the same 202).
        case passwordResetLimited = "password-reset.limited"
        /// The address was past its limit of requests: 429, nothing looked up.
        case passwordResetThrottled = "password-reset.throttled"
        /// A confirm for an account with a second factor: an mfaToken bound to the reset issued.
        case passwordResetMFARequired = "password-reset.mfa-required"
        /// The password was reset; every session of the account ended.
        case passwordResetCompleted = "password-reset.completed"
        /// A confirm refused: an unknown, used or expired token or mfaToken, or a wrong code.
        case passwordResetFailed = "password-reset.failed"
        /// The relay answered 250 to a message (or development wrote its file): `AuditLog+Mail`.
        case mailSent = "mail.sent"
        /// A message was given up: refused for good (5xx), unsendable, or past its queue lifetime.
        case mailFailed = "mail.failed"
        /// A verification link was queued: a new account's address, a change's, or sent again.
        case emailVerificationSent = "email.verification-sent"
        /// A link's token was spent: the address is the account's, verified.
        case emailVerified = "email.verified"
        /// A change of address started (pending until the new address is verified).
        case emailChangeRequested = "email.change-requested"
        /// The current password given to change the address was wrong.
        case emailChangeFailed = "email.change-failed"
        /// An address change refused by the login throttle, its current password unchecked.
        case emailChangeThrottled = "email.change-throttled"
        /// A user created a personal access token (with its session's id; never the token).
        case personalAccessTokenCreated = "pat.created"
        /// A user revoked one of their personal access tokens.
        case personalAccessTokenRevoked = "pat.revoked"
    }

    let logger: Logger

    func record(_ event: Event, _ request: Request, userID: UUID? = nil, sessionID: UUID? = nil, username: String? = nil) {
        var metadata: Logger.Metadata = [
            "event": .string(event.rawValue),
            "address": .string(request.clientAddress),
            "request-id": .string(request.id),
        ]
        if let userID { metadata["user-id"] = .string(userID.uuidString) }
        if let sessionID { metadata["session-id"] = .string(sessionID.uuidString) }
        if let username { metadata["username"] = .string(username) }
        if let agent = request.headers["User-Agent"] { metadata["user-agent"] = .string(String(agent.prefix(256))) }
        logger.notice("audit \(event.rawValue)", metadata: metadata)
    }
}
