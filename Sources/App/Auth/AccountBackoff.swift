/// The login throttle's rule for one username across every address (`LOGIN_ACCOUNT_BACKOFF_*`):
/// a wait that doubles with each failure, instead of a lockout that anyone who knows a
/// username could keep up forever.
///
/// Once `threshold` failed logins for a username lie within `window`, a login for it waits
/// `base` after the latest failure, then 2 × `base` after the next, 4 × `base`, … at most
/// `max`: the f-th failure (f ≥ `threshold`) is followed by min(`max`, `base` × 2^(f − `threshold`)).
/// Addresses where the user logged in within `LoginThrottle.knownOriginLifetime` are exempt:
/// only their own (username, address) limit stops them, so the owner keeps logging in from
/// home while a stranger guesses.
///
/// So from addresses the user has not logged in from, whatever their number, at most
/// `maxFailures(within:)` guesses are checked in any span up to `window`: with the defaults,
/// 21 in an hour and 67 in a day.
public struct AccountBackoff: Sendable, Equatable {
    /// Failures within `window`, from any address, before waits begin.
    public var threshold = 10
    /// The first wait.
    public var base: Duration = .seconds(1)
    /// The longest wait.
    public var max: Duration = .seconds(1800)
    /// How long a failure counts toward `threshold` and the doubling.
    public var window: Duration = .seconds(86400)

    public init() {}

    /// Past 2^30 × `base` every wait is `max` anyway (`max` is at most a day); the cap keeps
    /// the arithmetic, here and in SQL, far from overflow.
    static let maxDoublings = 30

    /// The wait after the `failures`-th failure within `window`; nil below the threshold.
    public func wait(afterFailures failures: Int) -> Duration? {
        guard failures >= threshold else { return nil }
        let doublings = Swift.min(failures - threshold, Self.maxDoublings)
        return Swift.min(max, base * (1 << doublings))
    }

    /// The most failures this rule lets through in `span` (at most `window`): `threshold` at
    /// once, then one after each wait.
    public func maxFailures(within span: Duration) -> Int {
        guard base > .zero else { return .max }
        var failures = threshold, elapsed = Duration.zero
        while let wait = wait(afterFailures: failures), elapsed + wait <= span {
            elapsed += wait
            failures += 1
        }
        return failures
    }
}
