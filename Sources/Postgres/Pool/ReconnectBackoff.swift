import Synchronization

/// Keeps a client from hammering a database that is down: after a failed connect, only one
/// probe at a time may try again, no sooner than an exponentially growing delay (capped);
/// every other attempt fails at once, so requests get a quick 503 instead of each waiting
/// out its own connect.
final class ReconnectBackoff: Sendable {
    private struct State {
        var failures = 0
        var nextAttempt = ContinuousClock.now
        var probing = false
    }

    private let state = Mutex(State())
    private let initialDelay: Duration
    private let maximumDelay: Duration

    init(initialDelay: Duration = .milliseconds(50), maximumDelay: Duration = .seconds(1)) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
    }

    /// Throws `connectionFailed` while backing off; otherwise the caller may connect (and must
    /// report the outcome).
    func admitAttempt(now: ContinuousClock.Instant = .now) throws {
        let wait = state.withLock { state -> Duration? in
            guard state.failures > 0 else { return nil }
            guard !state.probing, now >= state.nextAttempt else { return max(.zero, state.nextAttempt - now) }
            state.probing = true
            return nil
        }
        if let wait {
            throw PostgresError(.connectionFailed, message: "The database was unreachable; next connection attempt in \(Int((wait / .milliseconds(1)).rounded(.up))) ms or after the current one.")
        }
    }

    func attemptSucceeded() {
        state.withLock { $0 = State() }
    }

    func attemptFailed(now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            state.failures += 1
            state.probing = false
            let delay = initialDelay * (1 << min(state.failures - 1, 16))
            state.nextAttempt = now + min(delay, maximumDelay)
        }
    }

    /// Consecutive failed connects (0 when the database is reachable).
    var failures: Int { state.withLock { $0.failures } }
}
