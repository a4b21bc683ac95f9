/// The token lifecycle's knobs, read once at start-up: lifetimes (`TOKEN_TTL`,
/// `REFRESH_TOKEN_TTL`, `REFRESH_REUSE_GRACE`), login throttling and queueing (`LOGIN_*`,
/// `LOGIN_ACCOUNT_BACKOFF_*`),
/// `TRUSTED_PROXIES` and `ACRONYM_EDIT_POLICY`, as `EnvironmentVariable` declares them.
public struct AuthSettings: Sendable {
    public var tokenTTL: Duration = .seconds(3600)
    public var refreshTokenTTL: Duration = .seconds(30 * 24 * 3600)
    public var refreshReuseGrace: Duration = .zero
    public var loginMaxFailures = 10
    public var loginWindow: Duration = .seconds(900)
    public var accountBackoff = AccountBackoff()
    public var trustedProxies = TrustedProxies()
    public var acronymEditPolicy = AcronymEditPolicy.anyone
    public var loginQueueLimit = 64
    public var loginMaxWait: Duration = .seconds(5)

    public init() {}

    /// How long a failed login is kept: as long as a rule of the throttle still counts it.
    var loginFailureRetention: Duration { max(loginWindow, accountBackoff.window) }

    /// Each setting from its variable; unset ones keep the defaults above.
    public init(reader: ConfigReader) throws(ConfigurationError) {
        tokenTTL = try reader.seconds(.tokenTTL) ?? tokenTTL
        refreshTokenTTL = try reader.seconds(.refreshTokenTTL) ?? refreshTokenTTL
        refreshReuseGrace = try reader.seconds(.refreshReuseGrace) ?? refreshReuseGrace
        loginWindow = try reader.seconds(.loginWindow) ?? loginWindow
        loginMaxWait = try reader.seconds(.loginMaxWait) ?? loginMaxWait
        loginMaxFailures = try reader.number(.loginMaxFailures) ?? loginMaxFailures
        accountBackoff.threshold = try reader.number(.loginAccountBackoffThreshold) ?? accountBackoff.threshold
        accountBackoff.base = try reader.seconds(.loginAccountBackoffBase) ?? accountBackoff.base
        accountBackoff.max = try reader.seconds(.loginAccountBackoffMax) ?? accountBackoff.max
        accountBackoff.window = try reader.seconds(.loginAccountBackoffWindow) ?? accountBackoff.window
        guard accountBackoff.max <= accountBackoff.window else {
            throw ConfigurationError(
                "\(reader.source(of: .loginAccountBackoffMax)) (\(accountBackoff.max.components.seconds) s) must not exceed "
                    + "\(reader.source(of: .loginAccountBackoffWindow)) (\(accountBackoff.window.components.seconds) s): "
                    + "failures would be forgotten before the longest wait is over.")
        }
        loginQueueLimit = try reader.number(.loginQueueLimit) ?? loginQueueLimit
        trustedProxies = try reader.value(.trustedProxies, TrustedProxies.init(parsing:)) ?? trustedProxies
        acronymEditPolicy = try reader.choice(.acronymEditPolicy, as: AcronymEditPolicy.self) ?? acronymEditPolicy
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
