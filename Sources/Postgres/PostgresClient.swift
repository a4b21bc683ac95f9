public import Logging
public import Sockets

/// The application's handle on PostgreSQL: pools of non-blocking libpq connections, one pool
/// per event loop, so a request's statements run on the thread that serves the request.
///
/// ```swift
/// let db = PostgresClient(configuration: try PostgresConfiguration(url: "postgres://til@127.0.0.1/til"), logger: logger)
/// let rows = try await db.query("SELECT name FROM users WHERE id = \(id)")
/// ```
public final class PostgresClient: Sendable {
    public let configuration: PostgresConfiguration
    private let pools: ConnectionPools
    private let logger: Logger

    /// `slowLeases`, if given, hears of every lease of a pooled connection slower than its
    /// threshold (waiting for it plus holding it): where a slow request's database time went.
    public init(configuration: PostgresConfiguration, logger: Logger, slowLeases: SlowLeaseReport? = nil) {
        self.configuration = configuration
        self.logger = logger
        pools = ConnectionPools(configuration: configuration, slowLeases: slowLeases)
    }

    /// Rows of a parameterised statement.
    public func query(_ query: PostgresQuery) async throws -> [PostgresRow] {
        let cached = configuration.statementCache
        return try await withConnection { try await $0.query(query, cached: cached).rows }
    }

    /// Runs a parameterised statement; the number of rows it affected.
    @discardableResult
    public func execute(_ query: PostgresQuery) async throws -> Int {
        let cached = configuration.statementCache
        return try await withConnection { try await $0.query(query, cached: cached).affectedRows }
    }

    /// SQL text without parameters — migrations and administration only.
    public func simpleQuery(_ sql: String) async throws {
        _ = try await withConnection { try await $0.simpleQuery(sql) }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    /// BEGIN shares a round trip with the first statement (libpq's pipeline mode).
    public func withTransaction<T: Sendable>(_ body: @Sendable (PostgresTransaction) async throws -> T) async throws -> T {
        try await onLoop { pool in
            let connection = try await pool.acquire()
            defer { pool.release(connection) }
            connection.beginWithNextStatement()
            let value: T
            do {
                value = try await body(PostgresTransaction(connection: LoopBound(connection, loop: connection.loop), cached: configuration.statementCache))
            } catch {
                try? await connection.endTransaction("ROLLBACK")
                throw error
            }
            try await connection.endTransaction("COMMIT")
            return value
        }
    }

    /// Connections in use, callers waiting for one, and acquire timeouts so far, summed over
    /// the loops' pools: for metrics, costs no database round trip.
    public var poolStatistics: PoolStatistics { pools.statistics }

    /// How long callers waited for connections, spent in statements, and how many they sent,
    /// lease by lease since the client started: for metrics, summed over the loops' pools.
    public var leaseStatistics: LeaseStatistics { pools.leaseStatistics }

    /// The loops this client runs callers on that come from no loop of their own; a
    /// benchmark or batch job can start its tasks there to skip the hop.
    public func eventLoops() throws -> [EventLoop] {
        try pools.ownLoops()
    }

    /// Closes every connection; later calls fail with `.closed`.
    public func shutdown() async {
        await pools.shutdown()
    }

    /// Runs `body` with a pooled connection of the caller's loop. A statement that never
    /// reached the server because its connection was found dead (server restart, killed
    /// backend) is tried once more on a new connection; one that went out is never repeated,
    /// since a write might then run twice.
    private func withConnection<T: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await onLoop { pool in
            var attempts = 2
            while true {
                attempts -= 1
                let connection = try await pool.acquire()
                do {
                    defer { pool.release(connection) }
                    return try await body(connection)
                } catch let error as PostgresError where error.neverSent && attempts > 0 {
                    logger.warning("database connection lost; retrying on a new one", metadata: ["error": "\(error.message)"])
                }
            }
        }
    }

    /// Runs `body` on an event loop with that loop's pool: the caller's own loop when it runs
    /// on one (no hop), else one of the client's loops.
    private func onLoop<T: Sendable>(_ body: @Sendable (LoopConnectionPool) async throws -> T) async throws -> T {
        if let loop = EventLoop.current {
            return try await body(pools.pool(for: loop))
        }
        let loop = try pools.ownLoop()
        let pools = pools
        return try await withTaskExecutorPreference(loop) {
            try await body(pools.pool(for: loop))
        }
    }
}

/// The statements of one transaction, all on the same connection.
public struct PostgresTransaction: Sendable {
    /// Confined to its loop: statements reach it there (`withValue`), from wherever the body runs.
    let connection: LoopBound<PostgresConnection>
    let cached: Bool

    public func query(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await connection.withValue { try await $0.query(query, cached: cached).rows }
    }

    @discardableResult
    public func execute(_ query: PostgresQuery) async throws -> Int {
        try await connection.withValue { try await $0.query(query, cached: cached).affectedRows }
    }

    public func simpleQuery(_ sql: String) async throws {
        _ = try await connection.withValue { try await $0.simpleQuery(sql) }
    }
}
