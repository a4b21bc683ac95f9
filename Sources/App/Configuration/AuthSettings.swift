/// The token lifecycle's knobs, read once at start-up: lifetimes (`TOKEN_TTL`,
/// `REFRESH_TOKEN_TTL`, `SESSION_MAX_LIFETIME`), refresh (`REFRESH_REUSE_GRACE`,
/// `REFRESH_RATE_LIMIT`), `TOKEN_PURGE_INTERVAL`, login throttling and queueing (`LOGIN_*`,
/// `LOGIN_ACCOUNT_BACKOFF_*`), `REAUTH_WINDOW`,
/// `TRUSTED_PROXIES`, `ACRONYM_EDIT_POLICY` and `PAT_MAX_TTL`, as `EnvironmentVariable` declares them.
public struct AuthSettings: Sendable {
    public var tokenTTL: Duration = .seconds(3600)
    public var refreshTokenTTL: Duration = .seconds(30 * 24 * 3600)
    public var refreshReuseGrace: Duration = .zero
    /// Refreshes one session may make per minute (`RefreshRateLimit`).
    public var refreshRateLimit = 30
    /// How long a session may live from its login, however often it is refreshed.
    public var sessionMaxLifetime: Duration = .seconds(90 * 24 * 3600)
    public var tokenPurgeInterval: Duration = .seconds(300)
    public var loginMaxFailures = 10
    public var loginWindow: Duration = .seconds(900)
    public var accountBackoff = AccountBackoff()
    public var trustedProxies = TrustedProxies()
    public var acronymEditPolicy = AcronymEditPolicy.anyone
    public var loginQueueLimit = 64
    public var loginMaxWait: Duration = .seconds(5)
    /// How long a browser session (TIL's own pages) lives unused; never past `sessionMaxLifetime`.
    public var browserSessionIdle: Duration = .seconds(12 * 3600)
    /// How recent a session's last authentication must be for a sensitive change (RFC 9470).
    public var reauthWindow: Duration = .seconds(600)
    /// The longest lifetime a personal access token may be created with (`PAT_MAX_TTL`).
    public var personalAccessTokenMaxTTL: Duration = .seconds(365 * 86400)

    public init() {}

    /// How long a failed login is kept: as long as a rule of the throttle still counts it.
    var loginFailureRetention: Duration { max(loginWindow, accountBackoff.window) }

    /// Each setting from its variable; unset ones keep the defaults above.
    public init(reader: ConfigReader) throws(ConfigurationError) {
        tokenTTL = try reader.seconds(.tokenTTL) ?? tokenTTL
        refreshTokenTTL = try reader.seconds(.refreshTokenTTL) ?? refreshTokenTTL
        refreshReuseGrace = try reader.seconds(.refreshReuseGrace) ?? refreshReuseGrace
        refreshRateLimit = try reader.number(.refreshRateLimit) ?? refreshRateLimit
        sessionMaxLifetime = try reader.seconds(.sessionMaxLifetime) ?? sessionMaxLifetime
        tokenPurgeInterval = try reader.seconds(.tokenPurgeInterval) ?? tokenPurgeInterval
        loginWindow = try reader.seconds(.loginWindow) ?? loginWindow
        loginMaxWait = try reader.seconds(.loginMaxWait) ?? loginMaxWait
        loginMaxFailures = try reader.number(.loginMaxFailures) ?? loginMaxFailures
        accountBackoff.threshold = try reader.number(.loginAccountBackoffThreshold) ?? accountBackoff.threshold
        accountBackoff.base = try reader.seconds(.loginAccountBackoffBase) ?? accountBackoff.base
        accountBackoff.max = try reader.seconds(.loginAccountBackoffMax) ?? accountBackoff.max
        accountBackoff.window = try reader.seconds(.loginAccountBackoffWindow) ?? accountBackoff.window
        try Self.require(
            .loginAccountBackoffMax, accountBackoff.max, notAbove: .loginAccountBackoffWindow, accountBackoff.window, reader,
            because: "failures would be forgotten before the longest wait is over")
        loginQueueLimit = try reader.number(.loginQueueLimit) ?? loginQueueLimit
        browserSessionIdle = try reader.seconds(.browserSessionIdle) ?? browserSessionIdle
        reauthWindow = try reader.seconds(.reauthWindow) ?? reauthWindow
        personalAccessTokenMaxTTL = try reader.seconds(.personalAccessTokenMaxTTL) ?? personalAccessTokenMaxTTL
        trustedProxies = try reader.value(.trustedProxies, TrustedProxies.init(parsing:)) ?? trustedProxies
        acronymEditPolicy = try reader.choice(.acronymEditPolicy, as: AcronymEditPolicy.self) ?? acronymEditPolicy
        // A session whose refresh token has expired is over (logout, the session list and the
        // purge all treat it so); an access token that outlived it would go on working.
        try Self.require(
            .tokenTTL, tokenTTL, notAbove: .refreshTokenTTL, refreshTokenTTL, reader,
            because: "an access token would outlive its session, and logging out would not end it")
    }

    /// Throws unless `value`, read from `variable`, is at most `limit`, read from `limitVariable`:
    /// "TOKEN_TTL (7200 s) must not exceed REFRESH_TOKEN_TTL (3600 s): <reason>."
    private static func require(
        _ variable: EnvironmentVariable, _ value: Duration, notAbove limitVariable: EnvironmentVariable, _ limit: Duration,
        _ reader: ConfigReader, because reason: String
    ) throws(ConfigurationError) {
        guard value > limit else { return }
        throw ConfigurationError(
            "\(reader.source(of: variable)) (\(value.components.seconds) s) must not exceed "
                + "\(reader.source(of: limitVariable)) (\(limit.components.seconds) s): \(reason).")
    }
}

/// Who may update or delete an acronym.
public enum AcronymEditPolicy: String, Sendable, CaseIterable {
    /// Any logged-in user, and an update makes the caller the owner (the book's behaviour).
    case anyone
    /// Only the acronym's owner may change it (update, delete, (un)link categories); an update keeps the owner.
    case owner
}

extension Duration {
    /// Whole and fractional seconds, for SQL intervals and headers.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
