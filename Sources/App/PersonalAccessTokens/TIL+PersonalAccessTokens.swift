import Web

extension TIL {
    /// Personal access tokens (issue 21) over the primary, living at most `PAT_MAX_TTL`.
    func personalAccessTokens(audit: AuditLog) -> PersonalAccessTokenManagement {
        PersonalAccessTokenManagement(
            tokens: PersonalAccessTokenRepository(db: db), maxLifetime: configuration.auth.personalAccessTokenMaxTTL, audit: audit)
    }

    /// `/api/users/me/tokens`.
    func configurePersonalAccessTokens(_ app: Application, auth: BearerAuth, audit: AuditLog) throws {
        try app.register(collection: PersonalAccessTokensController(management: personalAccessTokens(audit: audit), auth: auth))
    }

    /// The account page's forms for them, beside `accountPages`.
    func configurePersonalAccessTokenPages(_ app: Application, accountPages: AccountPageController, audit: AuditLog) throws {
        try app.register(collection: AccountTokenForms(accountPages: accountPages, management: personalAccessTokens(audit: audit)))
    }
}
