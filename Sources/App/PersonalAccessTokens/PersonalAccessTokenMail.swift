import TILWire

/// The notice a new personal access token sends its owner (ASVS 5.0 6.3.7), to a verified
/// address only: what was made, what it may do, until when, and what to do if it was not them.
/// Never the token itself.
enum PersonalAccessTokenMail {
    static func created(_ token: NewPersonalAccessToken, for username: String, to recipient: String, accountPage: String) -> OutgoingMail {
        let scopes = token.scopes.isEmpty
            ? "It holds no scope: it can only say whose it is."
            : "It may use: \(token.scopes.map(\.rawValue).joined(separator: ", "))."
        return MailLayout.compose(
            kind: .personalAccessTokenCreated, to: recipient, subject: "New personal access token for your TIL account",
            paragraphs: [
                "A personal access token named “\(token.name)” was created for your TIL account \(username) on "
                    + "\(PageDate.text(token.createdAt)). \(scopes) It expires on \(PageDate.text(token.expiresAt)).",
                "If you made it, there is nothing to do. If you did not, someone has signed in as you: revoke the token "
                    + "on your account page and change your password.",
            ],
            link: MailLink(url: accountPage, label: "Review your tokens", lifetime: nil))
    }
}
