import Foundation
import Postgres

/// The notices of ASVS 5.0 6.3.7 for what changes how an account signs in: its password, and
/// its second factors (TOTP on or off, new recovery codes, a passkey added or removed). Each is
/// queued in the transaction of its change (`MailOutbox`), so a change that rolls back sends
/// nothing and one that commits cannot lose its notice; only to a verified address (mail to an
/// unproven one could go to a stranger). A notice holds no secret and no link: one that asks to
/// click teaches people to follow links in mail.
enum AccountChangeMail: Sendable, Equatable {
    case passwordChanged
    /// Set through a reset link (`PasswordResetCompletion`): every session ended, none kept.
    case passwordReset
    case totpEnabled
    case totpDisabled
    case recoveryCodesRenewed
    case passkeyAdded(name: String)
    case passkeyRemoved

    var kind: MailKind { [.passwordChanged, .passwordReset].contains(self) ? .passwordChanged : .secondFactorChanged }

    var subject: String {
        switch self {
        case .passwordChanged: "Your TIL password was changed"
        case .passwordReset: "Your TIL password was reset"
        case .totpEnabled: "Two-step sign-in is on for your TIL account"
        case .totpDisabled: "Two-step sign-in is off for your TIL account"
        case .recoveryCodesRenewed: "New recovery codes for your TIL account"
        case .passkeyAdded: "A passkey was added to your TIL account"
        case .passkeyRemoved: "A passkey was removed from your TIL account"
        }
    }

    /// What happened, to `username`'s account, and what to do if it was not them.
    func paragraphs(username: String) -> [String] {
        let what = switch self {
        case .passwordChanged: "The password of your TIL account \(username) was changed. Every other session of yours was signed out."
        case .passwordReset: "The password of your TIL account \(username) was reset through a link sent to this address. Every session of yours was signed out."
        case .totpEnabled: "Two-step sign-in (an authenticator app's codes) was turned on for your TIL account \(username)."
        case .totpDisabled: "Two-step sign-in was turned off for your TIL account \(username): your password alone signs in now, and your recovery codes no longer work."
        case .recoveryCodesRenewed: "New recovery codes were made for your TIL account \(username); the old ones no longer work."
        case .passkeyAdded(let name): "A passkey named “\(name)” was added to your TIL account \(username): it can sign in without your password."
        case .passkeyRemoved: "A passkey was removed from your TIL account \(username): it no longer signs in."
        }
        return [what, "If this was you, there is nothing to do. If it was not, change your password at once and check your sessions and passkeys on your account page."]
    }

    func mail(to recipient: String, username: String) -> OutgoingMail {
        MailLayout.compose(kind: kind, to: recipient, subject: subject, paragraphs: paragraphs(username: username))
    }

    /// Queues this notice for `userID` on `runner` (the change's transaction) when the account
    /// has a verified address; nothing otherwise.
    func queue(for userID: UUID, on runner: any PostgresQueryable) async throws {
        let rows = try await runner.query("""
            SELECT email, username FROM users WHERE id = \(userID) AND email IS NOT NULL AND email_verified_at IS NOT NULL
            """)
        guard let row = rows.first else { return }
        let mail = mail(to: try row.decode(column: "email", as: String.self), username: try row.decode(column: "username", as: String.self))
        try await runner.execute(MailOutbox.enqueue(mail))
    }
}
