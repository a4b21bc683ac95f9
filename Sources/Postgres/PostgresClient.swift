public import Logging

/// The application's handle on PostgreSQL: a pool of connections, each on its own thread.
///
/// ```swift
/// let db = PostgresClient(configuration: try .fromEnvironment(), logger: logger)
/// let rows = try await db.query("SELECT name FROM users WHERE id = \(id)")
/// ```
public final class PostgresClient: Sendable {
    public let configuration: PostgresConfiguration
    let pool: ConnectionPool
    private let logger: Logger
    private let reaper: Task<Void, Never>

    public init(configuration: PostgresConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        let pool = ConnectionPool(configuration: configuration)
        self.pool = pool
        // Waiters past their deadline fail with databaseBusy; checked ten times a second.
        reaper = Task.detached {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                pool.expireWaiters()
            }
        }
    }

    /// Rows of a parameterised statement.
    public func query(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await withConnection(retryIfStale: true) { try $0.query(query).rows }
    }

    /// Runs a parameterised statement; the number of rows it affected.
    @discardableResult
    public func execute(_ query: PostgresQuery) async throws -> Int {
        try await withConnection(retryIfStale: true) { try $0.query(query).affectedRows }
    }

    /// SQL text without parameters — migrations and administration only.
    public func simpleQuery(_ sql: String) async throws {
        try await withConnection(retryIfStale: true) { try $0.simpleQuery(sql) }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    public func withTransaction<T: Sendable>(_ body: @Sendable (PostgresTransaction) async throws -> T) async throws -> T {
        let connection = try await pool.acquire()
        do {
            try await connection.run { try $0.simpleQuery("BEGIN") }
            let transaction = PostgresTransaction(connection: connection)
            let value: T
            do {
                value = try await body(transaction)
            } catch {
                _ = try? await connection.run { try $0.simpleQuery("ROLLBACK") }
                throw error
            }
            try await connection.run { try $0.simpleQuery("COMMIT") }
            pool.release(connection, broken: false)
            return value
        } catch {
            pool.release(connection, broken: !(await connection.isUsable()))
            throw error
        }
    }

    /// Closes every connection; later calls fail with `.closed`.
    public func shutdown() async {
        reaper.cancel()
        pool.close()
    }

    /// Runs `body` on a pooled connection. A connection found dead on its first statement
    /// (server restart, killed backend) is replaced and the statement tried once more: it
    /// cannot have run on a backend that was already gone.
    private func withConnection<T: Sendable>(
        retryIfStale: Bool, _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        var attempts = retryIfStale ? 2 : 1
        while true {
            attempts -= 1
            let connection = try await pool.acquire()
            do {
                let value = try await connection.run(body)
                pool.release(connection, broken: false)
                return value
            } catch let error as PostgresError where error.kind == .closed || error.kind == .connectionFailed {
                pool.release(connection, broken: true)
                if error.kind == .closed, attempts > 0 {
                    logger.warning("database connection lost; retrying on a new one", metadata: ["error": "\(error.message)"])
                    continue
                }
                throw error
            } catch {
                pool.release(connection, broken: false)
                throw error
            }
        }
    }
}

/// The statements of one transaction, all on the same connection.
public struct PostgresTransaction: Sendable {
    let connection: PooledConnection

    public func query(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await connection.run { try $0.query(query).rows }
    }

    @discardableResult
    public func execute(_ query: PostgresQuery) async throws -> Int {
        try await connection.run { try $0.query(query).affectedRows }
    }

    public func simpleQuery(_ sql: String) async throws {
        try await connection.run { try $0.simpleQuery(sql) }
    }
}
