import Web

/// What the account page says after one of its forms did something: the form's POST answers
/// 303 to `/account?notice=<key>` (so a reload never posts again), and the page shows the
/// sentence of that key, in a `role="status"` region a screen reader announces. Only these
/// keys are known, so no text of the query ever reaches the page.
enum AccountNotice: String, CaseIterable, Sendable {
    case sessionEnded = "session-ended"
    case appRevoked = "app-revoked"
    case totpDisabled = "totp-disabled"
    case recoveryCodeUsed = "recovery-code-used"
    case passkeyRenamed = "passkey-renamed"
    case passkeyRemoved = "passkey-removed"
    case signedInAgain = "signed-in-again"
    case passwordChanged = "password-changed"
    case emailVerified = "email-verified"
    case emailChangeSent = "email-change-sent"
    case emailLinkSent = "email-link-sent"
    case tokenRevoked = "token-revoked"

    var sentence: String {
        switch self {
        case .sessionEnded: "The session has ended."
        case .appRevoked: "The application's access was revoked and its sessions ended."
        case .totpDisabled: "Two-step sign-in is off. Your recovery codes no longer work."
        case .recoveryCodeUsed: "You signed in with a recovery code, which is now used up. Make new codes below if you are running low."
        case .passkeyRenamed: "The passkey was renamed."
        case .passkeyRemoved: "The passkey was removed."
        case .signedInAgain: "You signed in again: you can make the change now."
        case .passwordChanged: "Your password is changed. Your other sessions have ended."
        case .emailVerified: "Your email address is confirmed."
        case .emailChangeSent: "We sent a link to the new address. Your address changes once you follow it."
        case .emailLinkSent: "We sent the link again. It works for 24 hours."
        case .tokenRevoked: "The personal access token was revoked. Anything still using it is refused from now on."
        }
    }

    /// Where a form goes after doing it.
    var location: String { "/account?notice=\(rawValue)" }

    var html: HTML { "<p class=\"notice\" role=\"status\">\(sentence)</p>" }
}
