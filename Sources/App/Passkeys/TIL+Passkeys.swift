import Web

/// Passkeys' parts, made once per app: the API's controllers and the pages' endpoints share them.
struct PasskeyServices: Sendable {
    let relyingParty: ServedRelyingParty
    let passkeys: PasskeyRepository
    let options: PasskeyLoginOptions
    let registration: PasskeyRegistration
    let authentication: PasskeyAuthentication
    /// The second factors, which take a passkey as one (set once both exist).
    var secondFactors: SecondFactors?
}

extension TIL {
    /// Passkeys (issue 20) for `issuer`. Throws when `WEBAUTHN_RP_ID` does not fit the issuer.
    func passkeyServices(issuer: ServedIssuer, audit: AuditLog, mfaChallenges: MFAChallengeRepository) throws -> PasskeyServices {
        try configuration.webAuthn.check(against: issuer.current)
        let relyingParty = ServedRelyingParty(settings: configuration.webAuthn, issuer: issuer)
        let passkeys = PasskeyRepository(db: db)
        let challenges = WebAuthnChallenges(db: db)
        let credentials = PasskeyCredentials(db: db)
        return PasskeyServices(
            relyingParty: relyingParty, passkeys: passkeys,
            options: PasskeyLoginOptions(
                passkeys: passkeys, challenges: challenges, decoys: DecoyCredentials(secret: configuration.secretKey),
                mfaChallenges: mfaChallenges, relyingParty: relyingParty),
            registration: PasskeyRegistration(credentials: credentials, challenges: challenges, relyingParty: relyingParty),
            authentication: PasskeyAuthentication(
                credentials: credentials, challenges: challenges, relyingParty: relyingParty, throttle: loginThrottle, audit: audit))
    }

    /// The caller's passkeys under `/api/users/me/passkeys` and the passkey login under
    /// `/api/users/login/passkey`.
    func configurePasskeys(
        _ app: Application, _ services: PasskeyServices, auth: BearerAuth, audit: AuditLog, tokens: TokenRepository
    ) throws {
        try app.register(collection: PasskeysController(
            passkeys: services.passkeys, registration: services.registration, relyingParty: services.relyingParty, auth: auth,
            audit: audit, recentAuthentication: recentAuthentication))
        try app.register(collection: PasskeyLoginController(
            options: services.options, authentication: services.authentication, tokens: tokens, admins: AdminRole(db: db),
            audit: audit))
    }

    /// The passkeys script and the page endpoints it calls, beside `loginPages`.
    func configurePasskeyPages(_ app: Application, _ services: PasskeyServices, loginPages: LoginPagesController, audit: AuditLog) throws {
        try app.register(collection: PasskeysScriptFile())
        try app.register(collection: PasskeyPagesController(
            options: services.options, authentication: services.authentication, secondFactors: services.secondFactors,
            registration: services.registration, passkeys: services.passkeys, relyingParty: services.relyingParty, loginPages: loginPages, audit: audit,
            recentAuthentication: recentAuthentication))
    }
}
