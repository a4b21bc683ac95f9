import Synchronization

/// A snapshot of the connection pools' load (`PostgresClient.poolStatistics`), summed over
/// the event loops' pools.
public struct PoolStatistics: Sendable, Equatable {
    /// Connections handed out to callers now.
    public var inUse = 0
    /// Callers queued for a connection now.
    public var waiting = 0
    /// Callers that gave up after `acquireTimeout` since the client started (a counter).
    public var acquireTimeouts = 0

    public init() {}
}

/// One loop's pool load, counted by its loop and read by any thread (a scrape): atomics, so
/// the pool itself stays confined to its loop.
final class PoolCounters: Sendable {
    let inUse = Atomic<Int>(0)
    let waiting = Atomic<Int>(0)
    let acquireTimeouts = Atomic<Int>(0)
    let leases = LeaseRecorder()
}
