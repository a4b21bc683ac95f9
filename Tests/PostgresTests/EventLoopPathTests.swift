import Foundation
import Logging
@testable import Postgres
import Sockets
import WebTesting
import XCTest

/// The database path without thread hops: statements issued on an event loop are sent and
/// answered on that same loop thread, with named or (for poolers) unnamed statements.
final class EventLoopPathTests: XCTestCase {
    func testStatementsIssuedOnALoopAreAnsweredOnThatLoop() async throws {
        let db = try makeClient()
        let loop = try EventLoop(index: 0)
        try loop.start {}
        defer { loop.stop() }
        let stayed = try await Task(executorPreference: loop) { () async throws -> [Bool] in
            var stayed: [Bool] = []
            for index in 0..<5 {
                let row = try await db.query("SELECT \(Int32(index))::int AS n")[0]
                XCTAssertEqual(try row.decode(column: "n", as: Int.self), index)
                stayed.append(EventLoop.current === loop)
            }
            let inTransaction = try await db.withTransaction { tx in
                _ = try await tx.query("SELECT 1 AS one")
                return EventLoop.current === loop
            }
            return stayed + [inTransaction]
        }.value
        XCTAssertEqual(stayed, Array(repeating: true, count: 6))
        await db.shutdown()
    }

    func testWithoutStatementCacheNothingIsPreparedOnTheServer() async throws {
        var configuration = try testConfiguration()
        configuration.statementCache = false
        configuration.poolSize = 1
        let logger = Logger.quiet("t", level: .error)
        let db = PostgresClient(configuration: configuration, logger: logger)
        let table = uniqueTable()
        try await db.simpleQuery("CREATE TABLE \(table) (n int)")
        try await db.withTransaction { tx in
            for n in 1...3 { try await tx.execute("INSERT INTO \(unescaped: table) VALUES (\(Int32(n)))") }
            let prepared = try await tx.query("SELECT count(*)::int AS n FROM pg_prepared_statements")
            XCTAssertEqual(try prepared[0].decode(column: "n", as: Int.self), 0)
        }
        let sum = try await db.query("SELECT sum(n)::int AS s FROM \(unescaped: table) WHERE n > \(Int32(0))")
        XCTAssertEqual(try sum[0].decode(column: "s", as: Int.self), 6)
        try await db.simpleQuery("DROP TABLE \(table)")
        await db.shutdown()
    }

    func testStatementCacheReusesOnePreparedStatementPerConnection() async throws {
        let db = try makeClient(poolSize: 1)
        let loop = try EventLoop(index: 0)
        try loop.start {}
        defer { loop.stop() }
        let prepared = try await Task(executorPreference: loop) { () async throws -> Int in
            for n in 0..<10 { _ = try await db.query("SELECT \(Int32(n))::int AS n") }
            let rows = try await db.query("SELECT count(*)::int AS n FROM pg_prepared_statements")
            return try rows[0].decode(column: "n", as: Int.self)
        }.value
        XCTAssertEqual(prepared, 2, "one for the SELECT, one for the count itself")
        await db.shutdown()
    }

    func testAnUnreachableDatabaseFailsFastAfterTheFirstAttempt() async throws {
        var configuration = try PostgresConfiguration(url: "postgres://til@127.0.0.1:1/none")
        configuration.connectTimeout = .seconds(2)
        let logger = Logger.quiet("t")
        let db = PostgresClient(configuration: configuration, logger: logger)
        await XCTAssertThrowsConnectionFailed { _ = try await db.query("SELECT 1") }
        let started = ContinuousClock.now
        for _ in 0..<50 {
            await XCTAssertThrowsConnectionFailed { _ = try await db.query("SELECT 1") }
        }
        XCTAssertLessThan(ContinuousClock.now - started, .milliseconds(500), "backing off: no connect per request")
        await db.shutdown()
    }

    /// A statement whose connection broke after it went out may have run: it is reported,
    /// never repeated (a sequence, which no rollback undoes, counts the runs).
    func testAStatementThatWentOutIsNotRepeatedWhenItsConnectionBreaks() async throws {
        let db = try makeClient(poolSize: 1)
        let sequence = uniqueTable("pgseq")
        try await db.simpleQuery("CREATE SEQUENCE \(sequence)")
        do {
            _ = try await db.query("SELECT nextval('\(unescaped: sequence)'), pg_terminate_backend(pg_backend_pid())")
            XCTFail("the backend ended itself")
        } catch {
            XCTAssertEqual((error as? PostgresError)?.kind, .closed, "\(error)")
        }
        let runs = try await db.query("SELECT last_value::int AS n FROM \(unescaped: sequence)")
        XCTAssertEqual(try runs[0].decode(column: "n", as: Int.self), 1, "run once, not retried")
        try await db.simpleQuery("DROP SEQUENCE \(sequence)")
        await db.shutdown()
    }

    func testBackoffLetsOneProbeThroughAfterAGrowingDelay() throws {
        let backoff = ReconnectBackoff(initialDelay: .milliseconds(100), maximumDelay: .milliseconds(300))
        let start = ContinuousClock.now
        XCTAssertNoThrow(try backoff.admitAttempt(now: start))
        backoff.attemptFailed(now: start)
        XCTAssertThrowsError(try backoff.admitAttempt(now: start + .milliseconds(50)))
        XCTAssertNoThrow(try backoff.admitAttempt(now: start + .milliseconds(100)), "the probe")
        XCTAssertThrowsError(try backoff.admitAttempt(now: start + .milliseconds(150)), "one probe at a time")
        backoff.attemptFailed(now: start + .milliseconds(200))
        XCTAssertThrowsError(try backoff.admitAttempt(now: start + .milliseconds(350)), "delay doubled to 200 ms")
        XCTAssertNoThrow(try backoff.admitAttempt(now: start + .milliseconds(400)))
        for _ in 0..<5 { backoff.attemptFailed(now: start + .seconds(1)) }
        XCTAssertNoThrow(try backoff.admitAttempt(now: start + .milliseconds(1300)), "capped at 300 ms")
        backoff.attemptSucceeded()
        XCTAssertEqual(backoff.failures, 0)
        XCTAssertNoThrow(try backoff.admitAttempt(now: start))
        XCTAssertNoThrow(try backoff.admitAttempt(now: start), "healthy: no probe limit")
    }

    private func XCTAssertThrowsConnectionFailed(_ body: () async throws -> Void, line: UInt = #line) async {
        do {
            try await body()
            XCTFail("expected connectionFailed", line: line)
        } catch {
            XCTAssertEqual((error as? PostgresError)?.kind, .connectionFailed, "\(error)", line: line)
        }
    }
}

/// Transactions whose BEGIN travels in one pipeline with the first statement.
final class PipelinedTransactionTests: XCTestCase {
    func testStatementsOfATransactionShareItAndAFailureRollsItBack() async throws {
        let db = try makeClient(poolSize: 1)
        let table = uniqueTable()
        try await db.simpleQuery("CREATE TABLE \(table) (n int PRIMARY KEY)")
        let ids = try await db.withTransaction { tx in
            try await tx.execute("INSERT INTO \(unescaped: table) VALUES (\(Int32(1)))")
            let first = try await tx.query("SELECT txid_current()::text AS id")[0].decode(column: "id", as: String.self)
            let second = try await tx.query("SELECT txid_current()::text AS id")[0].decode(column: "id", as: String.self)
            return [first, second]
        }
        XCTAssertEqual(ids[0], ids[1], "one transaction")
        do {
            _ = try await db.withTransaction { tx in
                try await tx.execute("INSERT INTO \(unescaped: table) VALUES (\(Int32(2)))")
                try await tx.execute("INSERT INTO \(unescaped: table) VALUES (\(Int32(1)))")  // duplicate key
            }
            XCTFail("expected a unique violation")
        } catch let error as PostgresError {
            XCTAssertEqual(error.sqlState, .uniqueViolation)
        }
        do {
            _ = try await db.withTransaction { tx in
                try await tx.execute("INSERT INTO \(unescaped: table) VALUES ('x'::int)")  // fails in the first pipeline
            }
            XCTFail("expected an invalid value")
        } catch let error as PostgresError {
            XCTAssertEqual(error.kind, .server)
        }
        let emptyTransaction: Int = try await db.withTransaction { _ in 7 }
        XCTAssertEqual(emptyTransaction, 7)
        let rows = try await db.query("SELECT n FROM \(unescaped: table) ORDER BY n")
        XCTAssertEqual(try rows.map { try $0.decode(column: "n", as: Int.self) }, [1], "the failed transactions left nothing")
        try await db.execute("INSERT INTO \(unescaped: table) VALUES (\(Int32(3)))")
        let other = try makeClient(poolSize: 1)
        let seen = try await other.query("SELECT count(*)::int AS n FROM \(unescaped: table)")
        XCTAssertEqual(try seen[0].decode(column: "n", as: Int.self), 2, "the connection is usable and outside any transaction")
        await other.shutdown()
        try await db.simpleQuery("DROP TABLE \(table)")
        await db.shutdown()
    }
}
