/// The two messages of a password reset: the link, and the notice once the password is reset
/// (ASVS 6.3.7), which tells the owner what to do if it was not them.
enum PasswordResetMail {
    /// The link to `GET /reset-password?token=…` on the issuer, for `username`'s account.
    static func link(to recipient: String, username: String, url: String, lifetime: String) -> OutgoingMail {
        MailLayout.compose(
            kind: .passwordReset, to: recipient, subject: "Reset your TIL password",
            paragraphs: [
                "Someone asked to reset the password of your TIL account “\(username)”. Open the link to choose a new one.",
                MailLayout.unrequestedNote + " Your password stays as it is.",
            ],
            link: MailLink(url: url, label: "Choose a new password", lifetime: lifetime))
    }

    /// After a reset: every session of the account has ended.
    static func completed(to recipient: String, username: String) -> OutgoingMail {
        MailLayout.compose(
            kind: .passwordChanged, to: recipient, subject: "Your TIL password was reset",
            paragraphs: [
                "The password of your TIL account “\(username)” was reset through a link sent to this address, and every session of the account has ended.",
                "If this was not you, reset your password again at once and tell the administrator of this TIL server.",
            ])
    }
}
