/// How password resets behave: `PASSWORD_RESET_TTL`, and the request limits (fixed: they
/// protect mailboxes and the mail relay, not a deployment's taste).
public struct PasswordResetSettings: Sendable, Equatable {
    /// How long a reset link works (30 minutes).
    public var ttl: Duration = .seconds(1800)
    /// Mails one account gets within `window`: past it a request still answers 202 and
    /// sends nothing, so a stranger cannot flood someone's mailbox.
    public var accountLimit = 3
    /// Requests one client address may make within `window`, for any logins: past it 429.
    public var addressLimit = 20
    public var window: Duration = .seconds(3600)

    static let ttlRange = 300...86400

    public init() {}

    public init(reader: ConfigReader) throws(ConfigurationError) {
        ttl = try reader.seconds(.passwordResetTTL) ?? ttl
    }

    /// The lifetime as a mail says it: "30 minutes", "1 hour", "90 minutes".
    var ttlInWords: String {
        let minutes = Int(ttl.components.seconds) / 60
        if minutes % 60 == 0 { return minutes == 60 ? "1 hour" : "\(minutes / 60) hours" }
        return minutes == 1 ? "1 minute" : "\(minutes) minutes"
    }
}
