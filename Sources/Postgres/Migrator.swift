public import Logging

/// Applies and reverts migrations, recording them in `_migrations` (name, batch, time) like
/// Vapor's Fluent: each migration runs in its own transaction, applied ones are skipped, a
/// `migrate` run forms one batch, and `revertLastBatch` undoes the latest batch.
///
/// Safe to run twice and from two processes at once: every step takes a transaction-scoped
/// advisory lock and re-checks the record before acting.
public struct Migrator: Sendable {
    public let client: PostgresClient
    public let migrations: [Migration]
    private let logger: Logger

    /// An arbitrary constant identifying TIL's migration lock.
    private static let lockKey = 7_320_114_001

    public init(client: PostgresClient, migrations: [Migration], logger: Logger) {
        self.client = client
        self.migrations = migrations
        self.logger = logger
    }

    /// Applies the pending migrations in order; the names applied.
    @discardableResult
    public func migrate() async throws -> [String] {
        try await ensureTable()
        let batch = try await client.query("SELECT COALESCE(MAX(batch), 0) + 1 AS next FROM _migrations")[0]
            .decode(column: "next", as: Int.self)
        var applied: [String] = []
        for migration in migrations {
            let done = try await client.withTransaction { tx in
                try await tx.execute("SELECT pg_advisory_xact_lock(\(Self.lockKey))")
                guard try await tx.query("SELECT 1 FROM _migrations WHERE name = \(migration.name)").isEmpty else { return false }
                try await migration.prepare(tx)
                try await tx.execute("INSERT INTO _migrations (name, batch) VALUES (\(migration.name), \(batch))")
                return true
            }
            if done {
                logger.info("migration applied", metadata: ["migration": "\(migration.name)"])
                applied.append(migration.name)
            }
        }
        return applied
    }

    /// Reverts the migrations of the latest batch, newest first; the names reverted.
    @discardableResult
    public func revertLastBatch() async throws -> [String] {
        try await revert(Set(try await lastBatch()))
    }

    /// Names of the migrations `migrate` would apply, in order.
    public func pendingMigrations() async throws -> [String] {
        let applied = Set(try await appliedMigrations())
        return migrations.map(\.name).filter { !applied.contains($0) }
    }

    /// Names of the migrations `revertLastBatch` would revert, newest first.
    public func lastBatch() async throws -> [String] {
        try await ensureTable()
        let rows = try await client.query(
            "SELECT name FROM _migrations WHERE batch = (SELECT MAX(batch) FROM _migrations)")
        let names = Set(try rows.map { try $0.decode(column: "name", as: String.self) })
        return migrations.reversed().map(\.name).filter { names.contains($0) }
    }

    /// Reverts every applied migration, newest first.
    @discardableResult
    public func revertAll() async throws -> [String] {
        try await ensureTable()
        let rows = try await client.query("SELECT name FROM _migrations")
        return try await revert(Set(try rows.map { try $0.decode(column: "name", as: String.self) }))
    }

    /// Names of the applied migrations, in application order.
    public func appliedMigrations() async throws -> [String] {
        try await ensureTable()
        return try await client.query("SELECT name FROM _migrations ORDER BY batch, applied_at, name")
            .map { try $0.decode(column: "name", as: String.self) }
    }

    private func revert(_ names: Set<String>) async throws -> [String] {
        var reverted: [String] = []
        for migration in migrations.reversed() where names.contains(migration.name) {
            let done = try await client.withTransaction { tx in
                try await tx.execute("SELECT pg_advisory_xact_lock(\(Self.lockKey))")
                guard try await tx.execute("DELETE FROM _migrations WHERE name = \(migration.name)") == 1 else { return false }
                try await migration.revert(tx)
                return true
            }
            if done {
                logger.info("migration reverted", metadata: ["migration": "\(migration.name)"])
                reverted.append(migration.name)
            }
        }
        return reverted
    }

    private func ensureTable() async throws {
        try await client.simpleQuery("""
            CREATE TABLE IF NOT EXISTS _migrations (
                name text PRIMARY KEY,
                batch integer NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT clock_timestamp()
            )
            """)
    }
}
