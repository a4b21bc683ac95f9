public import Crypt
public import Logging
public import Postgres
public import Web

/// Everything the TIL app takes from its environment, read once at start-up by `ConfigReader`.
public struct AppConfiguration: Sendable {
    public var environment: Environment
    public var database: PostgresConfiguration
    /// Streaming replicas for anonymous reads (`DATABASE_READ_URL`); empty: every read goes to
    /// `database`. See `PublicReads` for which reads may go there.
    public var readReplicas: [PostgresConfiguration] = []
    /// The password the first migration gives the `admin` account it creates (see
    /// `AdminPasswordPolicy.swift`); `adminPasswordIsSet` when it came from `ADMIN_PASSWORD`.
    public var adminPassword: String
    public var adminPasswordIsSet = false
    public var bcryptCost: Int
    public var logLevel: Logger.Level
    /// Token lifetimes, throttling, trusted proxies, edit policy (`AuthSettings`).
    public var auth = AuthSettings()
    /// `/metrics` on the API's port (development, testing), on a port of its own, or off
    /// (`MetricsExposure`).
    public var metrics = MetricsExposure.serverPort
    /// `ISSUER`: the OAuth authorization server's public base URL; nil derives it from the
    /// loopback address served (`ServedIssuer`, `checkIssuer(servingOn:)`).
    public var issuer: Issuer?
    /// Client registration, code lifetime, other resources and their scopes (`OAuthSettings`).
    public var oauth = OAuthSettings()
    /// `SECRET_KEY`, which seals secrets at rest; nil until `requireSecretKey()` where it is
    /// unset outside testing (see `SecretKeyPolicy.swift`).
    public var secretKey: SecretKey?
    /// `JWKS_MAX_AGE`: how long relying parties may cache the published keys, and so how often
    /// every process reloads them and how long a rotated key waits before it signs.
    public var jwksMaxAge: Duration = .seconds(300)
    /// The clock of TOTP steps and mfaToken expiry: the system's, or a test's (no variable).
    public var secondFactorClock = SecondFactorClock.system
    /// `WEBAUTHN_RP_ID` and `WEBAUTHN_ORIGINS`: where passkeys work (`WebAuthnSettings`).
    public var webAuthn = WebAuthnSettings()
    /// `SMTP_URL`, `MAIL_FROM`, `SMTP_CA_FILE`: how mail goes out (`MailSettings`).
    public var mail = MailSettings(delivery: .files(directory: MailSettings.developmentDirectory))
    /// What a new password must be; `COMMON_PASSWORD_CHECK` (`PasswordRules`).
    var passwordRules = PasswordRules()
    /// `PASSWORD_RESET_TTL` and the reset's request limits (`PasswordResetSettings`).
    public var passwordReset = PasswordResetSettings()

    init(
        environment: Environment, database: PostgresConfiguration, adminPassword: String, bcryptCost: Int, logLevel: Logger.Level
    ) {
        self.environment = environment
        self.database = database
        self.adminPassword = adminPassword
        self.bcryptCost = bcryptCost
        self.logLevel = logLevel
    }

    /// Reads and checks every setting of the app. `seedsAdmin`: the command may create the
    /// admin account (`serve`, `migrate`), so production needs `ADMIN_PASSWORD`; commands
    /// that never migrate (`routes`, `users`) pass false.
    public init(reader: ConfigReader, seedsAdmin: Bool = true) throws(ConfigurationError) {
        let environment = try reader.value(.environment, Self.knownEnvironment) ?? .production
        self.init(
            environment: environment, database: try PostgresConfiguration(reader: reader),
            adminPassword: try Self.adminPassword(environment: environment, from: reader, required: seedsAdmin),
            bcryptCost: try reader.number(.bcryptCost) ?? Bcrypt.defaultCost,
            logLevel: try reader.choice(.logLevel, as: Logger.Level.self) ?? (environment == .production ? .notice : .info))
        adminPasswordIsSet = reader.isSet(.adminPassword)
        readReplicas = try PostgresConfiguration.readReplicas(reader: reader)
        auth = try AuthSettings(reader: reader)
        metrics = try MetricsExposure(reader: reader, environment: environment)
        issuer = try Self.issuer(environment: environment, from: reader)
        oauth = try OAuthSettings(reader: reader)
        secretKey = try Self.secretKey(environment: environment, from: reader)
        jwksMaxAge = try reader.seconds(.jwksMaxAge) ?? jwksMaxAge
        webAuthn = try WebAuthnSettings(reader: reader)
        mail = try MailSettings(reader: reader, environment: environment)
        passwordRules = try PasswordRules(reader: reader)
        passwordReset = try PasswordResetSettings(reader: reader)
    }

    /// The environments TIL has rules for; `ENVIRONMENT` accepts these names and no other.
    static let knownEnvironments: [Environment] = [.development, .testing, .production]

    /// One of `knownEnvironments`, named in any case; nil for any other name (a typo must not
    /// start: it would be unclear which rules it gets).
    static func knownEnvironment(_ name: String) -> Environment? {
        let environment = Environment(name: name)
        return knownEnvironments.contains(environment) ? environment : nil
    }
}
