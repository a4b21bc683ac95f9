/// One message TIL sends (issue 21): written to `mail_outbox` in the same transaction as the
/// change that causes it, delivered later by the sender loop. Both parts are complete here, so
/// a retry sends exactly what was committed.
struct OutgoingMail: Sendable, Equatable {
    let kind: MailKind
    /// One address, already checked by the email rules.
    let recipient: String
    let subject: String
    /// The text/plain part.
    let text: String
    /// The text/html part, escaped by `MailLayout`.
    let html: String
}

/// Why a message is sent: stored with the row, logged when it goes out, never secret.
enum MailKind: String, Sendable, CaseIterable {
    /// A link that proves an address: a new account's, or an address the user changes to.
    case emailVerification = "email-verification"
    /// To the OLD address, when the account's address is being changed.
    case emailChanged = "email-changed"
    /// A link to choose a new password.
    case passwordReset = "password-reset"
    /// After a password change or reset (ASVS 6.3.7).
    case passwordChanged = "password-changed"
    /// TOTP turned on or off, a passkey added or removed.
    case secondFactorChanged = "second-factor-changed"
    /// A personal access token was created.
    case personalAccessTokenCreated = "personal-access-token-created"
}
