/// The mails of email verification, short and plain: who asked, the link and how long it
/// works, and what to do when it was not you. `MailLayout` builds both parts and escapes them.
enum EmailVerificationMail {
    /// To an address a new account was created with, or the account's current address again.
    static func confirmAddress(to email: String, username: String, link: String) -> OutgoingMail {
        confirmation(to: email, subject: "Confirm your email address for TIL", link: link, [
            "This address was given for the TIL account \(username). Confirm that it is yours with the button below.",
            "If you did not ask for this, ignore this mail: the address stays unconfirmed.",
        ])
    }

    /// To the new address of a pending change.
    static func confirmChange(to email: String, username: String, link: String) -> OutgoingMail {
        confirmation(to: email, subject: "Confirm your new email address for TIL", link: link, [
            "The TIL account \(username) asked to use this address from now on. It takes effect once you confirm it with the button below.",
            "If you did not ask for this, ignore this mail: the account keeps its current address.",
        ])
    }

    /// To the old, verified address when a change starts (ASVS 6.3.7): it still works, and
    /// the owner learns of a change they may not have made.
    static func changeRequested(to oldEmail: String, username: String, newEmail: String, accountPage: String) -> OutgoingMail {
        MailLayout.compose(
            kind: .emailChanged, to: oldEmail, subject: "Your TIL email address is being changed",
            paragraphs: [
                "Someone signed in to the TIL account \(username) asked to change its email address to \(masked(newEmail)).",
                "This address stays in force until the new one is confirmed. If that was not you, change your password now and end the sessions you do not know on your account page.",
            ],
            link: MailLink(url: accountPage, label: "Open your account page", lifetime: nil))
    }

    /// A mail whose link confirms the address it goes to, saying how long the link works.
    private static func confirmation(to email: String, subject: String, link: String, _ paragraphs: [String]) -> OutgoingMail {
        let lifetime = "\(Int(EmailVerificationTokens.lifetime / 3600)) hours"
        return MailLayout.compose(
            kind: .emailVerification, to: email, subject: subject, paragraphs: paragraphs,
            link: MailLink(url: link, label: "Confirm this address", lifetime: lifetime))
    }

    /// `t***@example.com`: enough for the owner to recognise, not the whole address for anyone
    /// who reads the old mailbox.
    static func masked(_ email: String) -> String {
        guard let at = email.lastIndex(of: "@"), let first = email.first, at != email.startIndex else { return "***" }
        return "\(first)***\(email[at...])"
    }
}
