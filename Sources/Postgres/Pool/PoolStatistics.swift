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
