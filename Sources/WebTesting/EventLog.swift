import Synchronization

/// What handlers did, recorded across tasks and threads so a test can assert on it: a
/// handler records "started" or "cancelled", the test waits for it with `eventually`.
public final class EventLog: Sendable {
    private let events = Mutex<[String]>([])

    public init() {}

    public func record(_ event: String) {
        events.withLock { $0.append(event) }
    }

    public var all: [String] { events.withLock { $0 } }

    public func contains(_ event: String) -> Bool { all.contains(event) }
}

/// Polls `condition` every 10 ms until it holds or `timeout` passes; whether it held. For
/// outcomes that arrive asynchronously (a cancelled handler, a closed connection, an actor's
/// state): the condition may await, or not.
public func eventually(within timeout: Duration = .seconds(5), _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while await !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return true
}
