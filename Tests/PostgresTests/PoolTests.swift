import Foundation
import Logging
import Postgres
import Threads
import WebTesting
import XCTest

final class PoolTests: XCTestCase {
    func testManyConcurrentQueriesShareABoundedPool() async throws {
        let db = try makeClient(poolSize: 3)
        // Other clients of the process (the app tests' shared one) keep idle connections open.
        let others = try await openConnections(db) - 1
        let sum = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<200 {
                group.addTask { try await db.query("SELECT \(index)::int AS n")[0].decode(column: "n", as: Int.self) }
            }
            return try await group.reduce(0, +)
        }
        XCTAssertEqual(sum, (0..<200).reduce(0, +))
        let ours = try await openConnections(db) - others
        // The size is shared out over one pool per core, each rounded up (ConnectionPools).
        let cores = min(OSThread.coreCount, 3)
        XCTAssertLessThanOrEqual(ours, cores * ((3 + cores - 1) / cores), "no more connections than the pools' capacity")
        await db.shutdown()
    }

    /// The connections of TIL clients to the test database, counted on `db`.
    private func openConnections(_ db: PostgresClient) async throws -> Int {
        let rows = try await db.query(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'til' AND datname = current_database()")
        return try rows[0].decode(column: "n", as: Int.self)
    }

    func testExhaustedPoolFailsWithDatabaseBusyInTime() async throws {
        let db = try makeClient(poolSize: 1, acquireTimeout: .milliseconds(300))
        let holder = Task { try await db.withTransaction { tx in try await tx.execute("SELECT pg_sleep(1.5)") } }
        try await Task.sleep(for: .milliseconds(100))
        let started = ContinuousClock.now
        do {
            _ = try await db.query("SELECT 1 AS one")
            XCTFail("expected databaseBusy")
        } catch {
            XCTAssertEqual((error as? PostgresError)?.kind, .databaseBusy, "\(error)")
        }
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(1))
        _ = try await holder.value
        let afterwards = try await db.query("SELECT 1 AS one")[0].decode(column: "one", as: Int.self)
        XCTAssertEqual(afterwards, 1)
        await db.shutdown()
    }

    func testKilledBackendHealsOnTheNextQuery() async throws {
        let db = try makeClient(poolSize: 1)
        let admin = try makeClient(poolSize: 1)
        let pid = try await db.query("SELECT pg_backend_pid() AS pid")[0].decode(column: "pid", as: Int.self)
        let killed = try await admin.query("SELECT pg_terminate_backend(\(Int32(pid))) AS ok")[0].decode(column: "ok", as: Bool.self)
        XCTAssertTrue(killed)
        try await Task.sleep(for: .milliseconds(100))
        let newPID = try await db.query("SELECT pg_backend_pid() AS pid")[0].decode(column: "pid", as: Int.self)
        XCTAssertNotEqual(newPID, pid)
        await db.shutdown()
        await admin.shutdown()
    }

    func testTransactionRollsBackOnThrow() async throws {
        struct Abort: Error {}
        let db = try makeClient()
        let table = uniqueTable()
        try await db.simpleQuery("CREATE TABLE \(table) (n int)")
        do {
            try await db.withTransaction { tx in
                try await tx.execute("INSERT INTO \(unescaped: table) VALUES (\(Int32(1)))")
                throw Abort()
            }
        } catch is Abort {}
        _ = try await db.withTransaction { tx in try await tx.execute("INSERT INTO \(unescaped: table) VALUES (\(Int32(2)))") }
        let rows = try await db.query("SELECT n FROM \(unescaped: table)")
        XCTAssertEqual(try rows.map { try $0.decode(column: "n", as: Int.self) }, [2])
        try await db.simpleQuery("DROP TABLE \(table)")
        await db.shutdown()
    }

    func testUnreachableServerNamesTheEndpointButNotThePassword() async throws {
        let logger = Logger.quiet("t")
        var configuration = try PostgresConfiguration(url: "postgres://someone:hunter2@127.0.0.1:1/nowhere")
        configuration.connectTimeout = .seconds(1)
        let db = PostgresClient(configuration: configuration, logger: logger)
        do {
            _ = try await db.query("SELECT 1")
            XCTFail("expected connectionFailed")
        } catch {
            XCTAssertEqual((error as? PostgresError)?.kind, .connectionFailed)
            XCTAssertTrue("\(error)".contains("127.0.0.1:1/nowhere"), "\(error)")
            XCTAssertFalse("\(error)".contains("hunter2"))
        }
        await db.shutdown()
    }

    func testConfigurationFromURL() throws {
        let url = try PostgresConfiguration(url: "postgresql://us%40er:p%3Ass@db.local:6543/app?sslmode=disable")
        XCTAssertEqual(url.username, "us@er")
        XCTAssertEqual(url.password, "p:ss")
        XCTAssertEqual(url.host, "db.local")
        XCTAssertEqual(url.port, 6543)
        XCTAssertEqual(url.database, "app")
        XCTAssertEqual(url.tls, .disable)
        XCTAssertThrowsError(try PostgresConfiguration(url: "mysql://x@y/z"))
    }
}
