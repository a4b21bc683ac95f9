import Web

extension TIL {
    /// Passkeys (issue 20): the caller's passkeys under `/api/users/me/passkeys` and the passkey
    /// login under `/api/users/login/passkey`. Throws when `WEBAUTHN_RP_ID` does not fit the issuer.
    func configurePasskeys(
        _ app: Application, issuer: ServedIssuer, auth: BearerAuth, audit: AuditLog, tokens: TokenRepository
    ) throws {
        try configuration.webAuthn.check(against: issuer.current)
        let relyingParty = ServedRelyingParty(settings: configuration.webAuthn, issuer: issuer)
        let passkeys = PasskeyRepository(db: db)
        let challenges = WebAuthnChallenges(db: db)
        let credentials = PasskeyCredentials(db: db)
        let options = PasskeyLoginOptions(
            passkeys: passkeys, challenges: challenges, decoys: DecoyCredentials(secret: configuration.secretKey),
            relyingParty: relyingParty)
        try app.register(collection: PasskeysController(
            passkeys: passkeys,
            registration: PasskeyRegistration(credentials: credentials, challenges: challenges, relyingParty: relyingParty),
            relyingParty: relyingParty, auth: auth, audit: audit))
        let authentication = PasskeyAuthentication(
            credentials: credentials, challenges: challenges, relyingParty: relyingParty, throttle: loginThrottle, audit: audit)
        try app.register(collection: PasskeyLoginController(
            options: options, authentication: authentication, tokens: tokens, admins: AdminRole(db: db), audit: audit))
    }
}
