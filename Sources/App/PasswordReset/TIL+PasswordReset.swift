import Web

extension TIL {
    /// Password reset by mail (issue 21): the API under `/api/users/password-reset` and the
    /// pages `/forgot-password` and `/reset-password`, sharing one request and one completion.
    /// Links point at `issuer`; a second factor is proven with `secondFactors` (a passkey's
    /// options made by `passkeyOptions`).
    func configurePasswordReset(
        _ app: Application, issuer: ServedIssuer, audit: AuditLog, secondFactors: SecondFactors, passkeyOptions: PasskeyLoginOptions
    ) throws {
        let requests = PasswordResetRequests(db: db, settings: configuration.passwordReset, issuer: issuer, audit: audit)
        let completion = PasswordResetCompletion(
            resets: PasswordResetRepository(db: db), secondFactors: secondFactors, passwords: passwordReplacement, hasher: hasher,
            audit: audit)
        try app.register(collection: PasswordResetController(
            requests: requests, completion: completion, mail: configuration.mail, passkeyOptions: passkeyOptions))
        try app.register(collection: PasswordResetPages(
            requests: requests, completion: completion, mail: configuration.mail, cookies: BrowserCookies(secure: issuer.current.isHTTPS)))
    }
}
