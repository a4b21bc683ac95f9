import Foundation
@testable import Postgres
import Sockets
import XCTest

/// Issue 22: a lookup prepared while its table was tiny keeps PostgreSQL's generic plan, a
/// sequential scan, after the table has grown, until the table is analysed again (up to a
/// minute later). A connection discards its plans every `StatementCache.replanInterval`
/// statements, so the lookup is planned afresh, as an index scan, well before that.
final class StalePlanTests: XCTestCase {
    func testALookupPreparedOnATinyTableIsReplannedOnceTheTableHasGrown() async throws {
        let db = try makeClient(poolSize: 1)
        let loop = try EventLoop(index: 0)
        try loop.start {}
        defer { loop.stop() }
        let table = uniqueTable("stale_plan")
        // No autovacuum on the table: it would analyse it meanwhile and hide what the
        // connection itself does.
        try await db.simpleQuery("""
            CREATE TABLE \(table) (id uuid PRIMARY KEY, v text) WITH (autovacuum_enabled = false);
            INSERT INTO \(table) SELECT gen_random_uuid(), 'tiny' FROM generate_series(1, 3);
            ANALYZE \(table)
            """)
        let plans = try await Task(executorPreference: loop) { () async throws -> [String] in
            let missing = UUID()
            let lookup: PostgresQuery = "SELECT v FROM \(unescaped: table) WHERE id = \(missing)"
            for _ in 0..<10 { _ = try await db.query(lookup) }  // past the five custom plans
            let before = try await currentPlan(of: lookup, on: db)
            try await db.execute("INSERT INTO \(unescaped: table) SELECT gen_random_uuid(), 'grown' FROM generate_series(1, \(Int32(50_000)))")
            for _ in 0...StatementCache.replanInterval { _ = try await db.query(lookup) }
            return [before, try await currentPlan(of: lookup, on: db)]
        }.value
        XCTAssertTrue(plans[0].contains("Seq Scan"), "three rows: a sequential scan is the cheaper plan\n\(plans[0])")
        XCTAssertTrue(plans[1].contains("Index Scan"), "50,003 rows: the lookup must use the primary key\n\(plans[1])")
        try await db.simpleQuery("DROP TABLE \(table)")
        await db.shutdown()
    }
}

/// The plan the connection's prepared statement for `lookup` runs with now (EXPLAIN EXECUTE on
/// the same connection: a pool of one).
private func currentPlan(of lookup: PostgresQuery, on db: PostgresClient) async throws -> String {
    let named = try await db.query("SELECT name FROM pg_prepared_statements WHERE statement = \(lookup.sql)")
    let name = try named[0].decode(column: "name", as: String.self)
    let rows = try await db.query("EXPLAIN EXECUTE \(unescaped: name)('\(unescaped: UUID().uuidString)')")
    return try rows.map { try $0.decode(column: "QUERY PLAN", as: String.self) }.joined(separator: "\n")
}
