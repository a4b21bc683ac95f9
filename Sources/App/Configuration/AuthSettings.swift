/// The token lifecycle's knobs, read from the environment once at start-up.
///
/// | variable              | default  | meaning                                                     |
/// |-----------------------|----------|-------------------------------------------------------------|
/// | `TOKEN_TTL`           | 3600     | access token lifetime, seconds                              |
/// | `REFRESH_TOKEN_TTL`   | 2592000  | refresh token lifetime (30 days), renewed by each refresh   |
/// | `REFRESH_REUSE_GRACE` | 0        | seconds a just-spent refresh token is accepted again        |
/// | `LOGIN_MAX_FAILURES`  | 10       | failed logins per username per window (5× per address)      |
/// | `LOGIN_WINDOW`        | 900      | the sliding window of failures, seconds                     |
/// | `TRUSTED_PROXIES`     | (none)   | proxies whose `X-Forwarded-For` is believed (IPs, CIDRs)    |
/// | `ACRONYM_EDIT_POLICY` | anyone   | `owner`: only an acronym's owner may change or delete it    |
/// | `LOGIN_QUEUE_LIMIT`   | 64       | logins waiting for bcrypt before 503                        |
/// | `LOGIN_MAX_WAIT`      | 5        | seconds a login may expect to wait for bcrypt before 503    |
public struct AuthSettings: Sendable {
    public var tokenTTL: Duration = .seconds(3600)
    public var refreshTokenTTL: Duration = .seconds(30 * 24 * 3600)
    public var refreshReuseGrace: Duration = .zero
    public var loginMaxFailures = 10
    public var loginWindow: Duration = .seconds(900)
    public var trustedProxies = TrustedProxies()
    public var acronymEditPolicy = AcronymEditPolicy.anyone
    public var loginQueueLimit = 64
    public var loginMaxWait: Duration = .seconds(5)

    public init() {}

    public static func load(from variables: [String: String]) throws -> AuthSettings {
        var settings = AuthSettings()
        /// The whole number in `name`, nil when unset; outside `range` (or not a number) an
        /// error naming the variable, in `unit`.
        func number(_ name: String, _ range: ClosedRange<Int>, unit: String = "a number") throws -> Int? {
            guard let text = variables[name] else { return nil }
            guard let value = Int(text), range.contains(value) else {
                throw ConfigurationError("\(name) must be \(unit) from \(range.lowerBound) to \(range.upperBound).")
            }
            return value
        }
        func seconds(_ name: String, _ range: ClosedRange<Int>) throws -> Duration? {
            try number(name, range, unit: "a whole number of seconds").map { .seconds($0) }
        }
        let year = 366 * 24 * 3600
        settings.tokenTTL = try seconds("TOKEN_TTL", 1...(7 * 24 * 3600)) ?? settings.tokenTTL
        settings.refreshTokenTTL = try seconds("REFRESH_TOKEN_TTL", 1...year) ?? settings.refreshTokenTTL
        settings.refreshReuseGrace = try seconds("REFRESH_REUSE_GRACE", 0...300) ?? settings.refreshReuseGrace
        settings.loginWindow = try seconds("LOGIN_WINDOW", 1...(24 * 3600)) ?? settings.loginWindow
        settings.loginMaxWait = try seconds("LOGIN_MAX_WAIT", 1...600) ?? settings.loginMaxWait
        settings.loginMaxFailures = try number("LOGIN_MAX_FAILURES", 1...10_000) ?? settings.loginMaxFailures
        settings.loginQueueLimit = try number("LOGIN_QUEUE_LIMIT", 0...100_000) ?? settings.loginQueueLimit
        if let text = variables["TRUSTED_PROXIES"] {
            settings.trustedProxies = try TrustedProxies(parsing: text)
        }
        if let text = variables["ACRONYM_EDIT_POLICY"] {
            guard let policy = AcronymEditPolicy(rawValue: text.lowercased()) else {
                throw ConfigurationError("ACRONYM_EDIT_POLICY must be 'anyone' or 'owner'.")
            }
            settings.acronymEditPolicy = policy
        }
        return settings
    }
}

/// Who may update or delete an acronym.
public enum AcronymEditPolicy: String, Sendable {
    /// Any logged-in user, and an update makes the caller the owner (the book's behaviour).
    case anyone
    /// Only the acronym's owner; an update keeps the owner.
    case owner
}

extension Duration {
    /// Whole and fractional seconds, for SQL intervals and headers.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
