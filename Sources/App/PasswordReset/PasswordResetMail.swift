/// The message of a password reset: the link. (The notice once the password is reset is
/// `AccountChangeMail.passwordReset`, as every change of how an account signs in has one.)
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
}
