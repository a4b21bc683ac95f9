/// Keeps a client from refreshing in a loop — a server whose tokens always look expired (a
/// clock far off), or one that keeps refusing them: at most `limit` refreshes per scope set
/// within `window`. Past it the keeper stops refreshing and lets the server's answer stand.
struct RefreshGuard: Sendable {
    var limit: Int
    var window: Duration
    private var recent: [ScopeSet: [ContinuousClock.Instant]] = [:]

    init(limit: Int, window: Duration) {
        self.limit = limit
        self.window = window
    }

    /// Whether one more refresh of `scopes` may run now; counts it if so.
    mutating func permit(_ scopes: ScopeSet, now: ContinuousClock.Instant = .now) -> Bool {
        var times = recent[scopes, default: []].filter { now - $0 < window }
        guard times.count < limit else {
            recent[scopes] = times
            return false
        }
        times.append(now)
        recent[scopes] = times
        return true
    }
}
