import Web

extension TIL {
    /// Personal access tokens (issue 21) over the primary, living at most `PAT_MAX_TTL`.
    /// Their notices link to the account page at `issuer`.
    func personalAccessTokens(issuer: ServedIssuer, audit: AuditLog) -> PersonalAccessTokenManagement {
        PersonalAccessTokenManagement(
            tokens: PersonalAccessTokenRepository(db: db), maxLifetime: configuration.auth.personalAccessTokenMaxTTL, issuer: issuer,
            audit: audit)
    }

    /// `/api/users/me/tokens`.
    func configurePersonalAccessTokens(_ app: Application, issuer: ServedIssuer, auth: BearerAuth, audit: AuditLog) throws {
        try app.register(collection: PersonalAccessTokensController(
            management: personalAccessTokens(issuer: issuer, audit: audit), auth: auth, recentAuthentication: recentAuthentication))
    }

    /// The account page's forms for them, beside `accountPages`.
    func configurePersonalAccessTokenPages(
        _ app: Application, accountPages: AccountPageController, issuer: ServedIssuer, audit: AuditLog
    ) throws {
        try app.register(collection: AccountTokenForms(
            accountPages: accountPages, management: personalAccessTokens(issuer: issuer, audit: audit)))
    }
}
