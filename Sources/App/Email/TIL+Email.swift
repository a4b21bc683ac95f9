import Web

extension TIL {
    /// The email addresses of accounts over the primary, their links on `issuer`'s pages.
    func accountEmails(issuer: ServedIssuer, audit: AuditLog) -> AccountEmails {
        AccountEmails(db: db, issuer: issuer, audit: audit)
    }

    /// The API of email addresses (`EmailController`).
    func configureEmail(_ app: Application, _ emails: AccountEmails, currentPassword: CurrentPassword, auth: BearerAuth) throws {
        try app.register(collection: EmailController(
            emails: emails, mail: configuration.mail, currentPassword: currentPassword, recentAuthentication: recentAuthentication,
            auth: auth))
    }

    /// The verification link's page and the account page's email forms.
    func configureEmailPages(
        _ app: Application, _ emails: AccountEmails, account: AccountPageController, currentPassword: CurrentPassword
    ) throws {
        try app.register(collection: VerifyEmailPages(emails: emails, loginPages: account.loginPages))
        try app.register(collection: AccountEmailForms(
            account: account, emails: emails, mail: configuration.mail, currentPassword: currentPassword))
    }
}
