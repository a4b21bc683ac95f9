import CoreMetrics
import Crypt
public import Logging
public import Postgres
public import Web

/// The TIL application: its database client, migrations and routes, wired once.
///
/// ```swift
/// let til = TIL(configuration: config, logger: logger)
/// try await til.migrator.migrate()
/// let app = Application(environment: config.environment, logger: logger)
/// try til.configure(app)
/// try await app.run()
/// ```
public struct TIL: Sendable {
    public let configuration: AppConfiguration
    /// The primary: every write, and every read of auth and of logged-in clients.
    public let db: PostgresClient
    /// `DATABASE_READ_URL`'s replicas for anonymous reads; nil without any.
    let replicas: ReadReplicas?
    public let migrator: Migrator
    let hasher: BcryptHasher
    /// Nil with `METRICS=off`.
    let metrics: TILMetrics?
    let logger: Logger
    /// The OpenID Connect signing keys, as this process last read them from the database.
    let signingKeys: SigningKeyRing
    /// False when `db` was lent by the caller, who closes it.
    private let ownsDatabase: Bool

    public init(configuration: AppConfiguration, logger: Logger) {
        self.init(configuration: configuration, logger: logger, sharedDatabase: nil)
    }

    /// With `sharedDatabase`, the app uses that client instead of opening its own, and leaves
    /// it open when it shuts down: the tests lend one client, and its connections, to many
    /// apps in turn.
    package init(configuration: AppConfiguration, logger: Logger, sharedDatabase: PostgresClient?) {
        self.configuration = configuration
        self.logger = logger
        db = sharedDatabase ?? PostgresClient(
            configuration: configuration.database, logger: logger, slowLeases: SlowLeaseLog.report(to: logger, database: "primary"))
        ownsDatabase = sharedDatabase == nil
        replicas = configuration.readReplicas.isEmpty ? nil : ReadReplicas(configurations: configuration.readReplicas, logger: logger)
        hasher = BcryptHasher(
            cost: configuration.bcryptCost,
            admission: .init(maxQueued: configuration.auth.loginQueueLimit, maxWait: configuration.auth.loginMaxWait))
        metrics = configuration.metrics.counts ? TILMetrics() : nil
        signingKeys = SigningKeyRing(
            store: SigningKeyStore(db: db, secret: configuration.secretKey), maxAge: configuration.jwksMaxAge)
        migrator = Migrator(
            client: db, migrations: TILMigrations.all(adminPassword: configuration.adminPassword, hasher: hasher), logger: logger)
    }

    /// Registers middleware and routes, starts the background purge of spent tokens, and
    /// closes the database (unless lent) when the app shuts down.
    public func configure(_ app: Application) throws {
        let settings = configuration.auth
        configuration.passwordRules.prepare()
        if !settings.trustedProxies.isEmpty {  // without any, the client address is the socket peer
            app.middleware.append(ClientAddressMiddleware(trustedProxies: settings.trustedProxies.networks))
        }
        app.middleware.append(DatabaseErrorMiddleware())
        app.middleware.append(HashingErrorMiddleware())
        if replicas != nil { app.middleware.append(PublicReadsMiddleware()) }
        let issuer = servedIssuer(for: app)
        app.middleware.append(ResourceMetadataChallenge(issuer: issuer))
        let publicReads = RoutedDatabase(primary: db, replicas: replicas)
        let users = UserRepository(db: publicReads)
        let acronyms = AcronymRepository(db: publicReads)
        let categories = CategoryRepository(db: publicReads)
        let tokens = TokenRepository(db: db, settings: settings)
        let sessions = SessionRepository(db: db)
        let audit = AuditLog(logger: logger)
        let verifier = PasswordVerifier(hasher: hasher, throttle: loginThrottle, users: UserRepository(db: db))
        let auth = BearerAuth(authenticator: BearerAuthenticator(tokens: tokens))
        let basicLogin = BasicLogin(
            verifier: verifier, rehash: PasswordRehash(hasher: hasher, db: db, logger: logger), audit: audit,
            metrics: LoginMetrics(factory: metrics?.factory ?? NOOPMetricsHandler.instance))
        var secondFactors = secondFactors(audit: audit)
        var passkeys = try passkeyServices(issuer: issuer, audit: audit, mfaChallenges: secondFactors.challenges)
        secondFactors.passkeys = passkeys.authentication
        passkeys.secondFactors = secondFactors
        let proofs = AccountChangeProof(
            currentPassword: CurrentPassword(verifier: verifier, audit: audit), secondFactors: secondFactors, sessions: sessions)
        let emails = accountEmails(issuer: issuer, audit: audit)
        let rotation = RefreshRotation(
            db: db, tokens: tokens, grace: settings.refreshReuseGrace, limit: RefreshRateLimit(perMinute: settings.refreshRateLimit))

        try app.register(collection: HealthController(db: db, mail: configuration.mail.readiness))
        try app.register(collection: OpenAPIController(document: OpenAPIDocument.bytes))
        try app.register(collection: DiscoveryController(issuer: issuer, scopes: configuration.oauth.scopes))
        try app.register(collection: RegistrationController(
            clients: ClientRepository(db: db), registration: configuration.oauth.registration, scopes: configuration.oauth.scopes,
            auth: auth, issuer: issuer))
        let oauthTokens = OAuthTokenIssuer(settings: settings)
        let idTokens = IDTokenMinter(keys: signingKeys, lifetime: settings.tokenTTL)
        try app.register(collection: TokenController(
            clients: clientAuthenticator, issuer: issuer, scopes: configuration.oauth.scopes, tokens: oauthTokens,
            codes: CodeRedemption(db: db, issuer: oauthTokens, idTokens: idTokens, servedIssuer: issuer), rotation: rotation,
            devices: DeviceCodeGrant(db: db, tokens: oauthTokens), idTokens: idTokens))
        try app.register(collection: JWKSController(keys: signingKeys))
        try app.register(collection: DeviceAuthorizationController(
            clients: clientAuthenticator, codes: deviceCodes, catalog: configuration.oauth.scopes, issuer: issuer))
        try app.register(collection: RevocationController(clients: clientAuthenticator, db: db))
        try app.register(collection: GrantsController(grants: GrantRepository(db: db), auth: auth, audit: audit))
        try app.register(collection: IntrospectionController(db: db, clients: clientAuthenticator, issuer: issuer))
        try app.register(collection: UserInfoController(tokens: tokens, emails: emails))
        try app.register(collection: SessionsController(
            login: basicLogin, tokens: tokens, rotation: rotation,
            sessions: sessions, admins: AdminRole(db: db), secondFactors: secondFactors, auth: auth, audit: audit))
        try app.register(collection: MFALoginController(secondFactors: secondFactors, tokens: tokens, audit: audit))
        try app.register(collection: AccountController(
            sessions: sessions, proofs: proofs, passwords: passwordReplacement, auth: auth, audit: audit, emails: emails))
        try configureEmail(app, emails, currentPassword: proofs.currentPassword, auth: auth)
        let totpManagement = TOTPManagement(secondFactors: secondFactors, proofs: proofs, audit: audit)
        try app.register(collection: SecondFactorsController(
            management: totpManagement, auth: auth, recentAuthentication: recentAuthentication))
        try configureReauthentication(app, proofs: proofs, auth: auth, audit: audit)
        try configurePasskeys(app, passkeys, auth: auth, audit: audit, tokens: tokens)
        try configurePersonalAccessTokens(app, issuer: issuer, auth: auth, audit: audit)
        try app.register(collection: UsersController(
            users: users, acronyms: acronyms, hasher: hasher, passwordRules: configuration.passwordRules, auth: auth, emails: emails))
        try app.register(collection: AcronymsController(
            acronyms: acronyms, users: users, categories: categories, auth: auth, editPolicy: settings.acronymEditPolicy))
        try app.register(collection: CategoriesController(categories: categories, acronyms: acronyms, auth: auth))
        try configurePages(
            app, login: basicLogin, issuer: issuer, audit: audit, signingKeys: signingKeys, secondFactors: secondFactors,
            totp: totpManagement, passkeys: passkeys, emails: emails, currentPassword: proofs.currentPassword)
        try configurePasswordReset(app, issuer: issuer, audit: audit, secondFactors: secondFactors, passkeyOptions: passkeys.options)
        try configureMetrics(app)

        var purger = TokenPurger(db: db, loginFailureRetention: settings.loginFailureRetention, logger: logger)
        purger.signingKeyRetention = signingKeyRetention
        let purging = Task { await purger.run(every: settings.tokenPurgeInterval) }
        let (db, replicas, ownsDatabase) = (db, replicas, ownsDatabase)
        app.onShutdown {
            purging.cancel()
            await purging.value  // a pass under way ends before its database closes
            await replicas?.shutdown()
            if ownsDatabase { await db.shutdown() }
        }
    }

    /// The issuer `app` answers with (`ServedIssuer`): `ISSUER`, else the loopback address it
    /// serves, completed with the bound port when the server starts.
    func servedIssuer(for app: Application) -> ServedIssuer {
        let issuer = ServedIssuer(configured: configuration.issuer, host: app.http.host, port: app.http.port, tls: app.http.tls != nil)
        app.onStart { port in issuer.bind(port: port) }
        return issuer
    }

    /// TIL's pages: the stylesheet, sign-in and sign-out with browser sessions, and the OAuth
    /// authorization endpoint with its consent page.
    private func configurePages(
        _ app: Application, login: BasicLogin, issuer: ServedIssuer, audit: AuditLog, signingKeys: SigningKeyRing,
        secondFactors: SecondFactors, totp: TOTPManagement, passkeys: PasskeyServices, emails: AccountEmails,
        currentPassword: CurrentPassword
    ) throws {
        let settings = configuration.auth
        let browserSessions = BrowserSessionRepository(db: db, idle: settings.browserSessionIdle, maxLifetime: settings.sessionMaxLifetime)
        let cookies = BrowserCookies(secure: issuer.current.isHTTPS)
        let clients = ClientRepository(db: db)
        let loginPages = LoginPagesController(
            formLogin: FormLogin(login: login, sessions: browserSessions), sessions: browserSessions, secondFactors: secondFactors,
            cookies: cookies, audit: audit,
            context: { returnTo in try await AuthorizationController.loginContext(returnTo: returnTo, clients: clients) })
        try app.register(collection: Stylesheet())
        try app.register(collection: loginPages)
        try configurePasskeyPages(app, passkeys, loginPages: loginPages, audit: audit)
        try app.register(collection: AuthorizationController(
            clients: clients, consents: GrantRepository(db: db),
            codes: AuthorizationCodeRepository(db: db, lifetime: configuration.oauth.authorizationCodeTTL),
            catalog: configuration.oauth.scopes, issuer: issuer, loginPages: loginPages))
        try app.register(collection: DeviceVerificationController(
            codes: deviceCodes, consents: GrantRepository(db: db), catalog: configuration.oauth.scopes, loginPages: loginPages,
            throttle: FailureThrottle(db: db, maxFailures: settings.loginMaxFailures, window: settings.loginWindow)))
        try app.register(collection: EndSessionController(loginPages: loginPages, clients: clients, keys: signingKeys, issuer: issuer))
        let account = AccountPageController(
            loginPages: loginPages, sessions: SessionRepository(db: db), grants: GrantRepository(db: db), secondFactors: secondFactors,
            catalog: configuration.oauth.scopes, passkeys: passkeys.passkeys, tokens: PersonalAccessTokenRepository(db: db),
            tokenMaxLifetime: settings.personalAccessTokenMaxTTL, audit: audit, recentAuthentication: recentAuthentication,
            emails: emails)
        try app.register(collection: account)
        try configurePersonalAccessTokenPages(app, accountPages: account, issuer: issuer, audit: audit)
        try app.register(collection: AccountTOTPController(account: account, management: totp))
        try app.register(collection: AccountPasswordController(
            account: account, proofs: totp.proofs, passwords: passwordReplacement, audit: audit))
        try app.register(collection: AccountPasskeyForms(accountPages: account, passkeys: passkeys.passkeys, audit: audit))
        try configureEmailPages(app, emails, account: account, currentPassword: currentPassword)
    }

    /// RFC 8628's device codes, living `DEVICE_CODE_TTL`.
    var deviceCodes: DeviceCodeRepository {
        DeviceCodeRepository(db: db, lifetime: configuration.oauth.deviceCodeTTL)
    }

    /// How OAuth endpoints authenticate clients, failures throttled as `LOGIN_*` configure logins.
    var clientAuthenticator: ClientAuthenticator {
        let settings = configuration.auth
        return ClientAuthenticator(
            db: db, throttle: ClientAuthThrottle(db: db, maxFailures: settings.loginMaxFailures, window: settings.loginWindow))
    }

    /// The login throttle over the primary, as `LOGIN_*` configure it: the routes' and the
    /// operator's commands' (`users unlock`, `users list`).
    var loginThrottle: LoginThrottle {
        let settings = configuration.auth
        return LoginThrottle(
            db: db, maxFailures: settings.loginMaxFailures, window: settings.loginWindow, backoff: settings.accountBackoff)
    }

    /// TOTP, recovery codes and mfaTokens over the primary, judged by the configured clock.
    func secondFactors(audit: AuditLog) -> SecondFactors {
        SecondFactors(
            db: db, secretKey: configuration.secretKey, throttle: loginThrottle, audit: audit, clock: configuration.secondFactorClock)
    }

    /// How a password is replaced: the password change's and `users set-password`'s.
    var passwordReplacement: PasswordReplacement {
        PasswordReplacement(
            users: UserRepository(db: db), sessions: SessionRepository(db: db), hasher: hasher, rules: configuration.passwordRules)
    }

    /// Adds the book's `admin` user with the configured password unless it exists: the seed
    /// migration's step, for tests that empty the tables between cases instead of migrating.
    package func seedAdmin() async throws {
        try await TILMigrations.insertAdmin(password: configuration.adminPassword, hasher: hasher, on: db)
        try await db.execute("UPDATE users SET is_admin = true WHERE username = \("admin")")
    }

    /// Adds `til-cli` unless it exists: the device migration's seed, for tests that empty the
    /// tables between cases, so every test sees the clients production always has.
    package func seedBuiltInClients() async throws {
        try await db.execute("\(unescaped: TILMigrations.insertTILCLI)")
    }

    /// Counts requests by route and serves `/metrics` (`MetricsExposure`): on the app's port,
    /// or on a small server of its own at `METRICS_HOST:METRICS_PORT` (one loop, the port shared
    /// with other processes), stopped with the app.
    private func configureMetrics(_ app: Application) throws {
        if configuration.metrics == .productionWithoutPort {
            logger.notice("metrics not served: production serves /metrics only on METRICS_PORT (METRICS=off to silence this)")
        }
        guard let metrics else { return }
        app.metrics = metrics.factory
        let sources = TILMetrics.Sources(server: app.statistics, db: db, hasher: hasher)
        guard case .port(let port, let host) = configuration.metrics else {
            return try app.register(collection: MetricsController(metrics: metrics, sources: sources))
        }
        let server = HTTPServer(
            configuration: .init(host: host, port: port, loopCount: 1, serverName: app.http.serverName, reusePort: true),
            responder: MetricsPortResponder(metrics: metrics, sources: sources), logger: logger)
        try server.start()
        logger.notice("metrics on http://\(host):\(server.port)/metrics")
        app.onShutdown { await server.shutdown(gracePeriod: .seconds(1)) }
    }
}
