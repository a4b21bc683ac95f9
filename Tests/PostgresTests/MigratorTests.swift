import Foundation
import Logging
import Postgres
import WebTesting
import XCTest

final class MigratorTests: XCTestCase {
    func testUpDownUpAndIdempotent() async throws {
        let db = try makeClient()
        let a = uniqueTable("pgtest_mig_a"), b = uniqueTable("pgtest_mig_b")
        // Names unique per run, so this test never meets another run's records.
        let migrations = [
            Migration(name: "create \(a)", prepare: ["CREATE TABLE \(a) (id int)"], revert: ["DROP TABLE \(a)"]),
            Migration(name: "create \(b)", prepare: ["CREATE TABLE \(b) (id int)"], revert: ["DROP TABLE \(b)"]),
        ]
        let logger = Logger.quiet("t", level: .error)
        let migrator = Migrator(client: db, migrations: migrations, logger: logger)
        let applied = try await migrator.migrate()
        XCTAssertEqual(applied, ["create \(a)", "create \(b)"])
        let appliedAgain = try await migrator.migrate()
        XCTAssertEqual(appliedAgain, [], "running twice applies nothing")
        try await db.execute("INSERT INTO \(unescaped: b) VALUES (\(Int32(1)))")

        let reverted = try await migrator.revertLastBatch()
        XCTAssertEqual(reverted, ["create \(b)", "create \(a)"])
        await assertTableMissing(a, db)
        let reapplied = try await migrator.migrate().count
        XCTAssertEqual(reapplied, 2)
        let rowsAfterRedo = try await db.query("SELECT count(*)::int AS n FROM \(unescaped: b)")[0].decode(column: "n", as: Int.self)
        XCTAssertEqual(rowsAfterRedo, 0)

        // A failing migration rolls back completely and is not recorded.
        let broken = Migration(name: "broken \(a)", prepare: ["CREATE TABLE \(a)_x (id int)", "SELECT * FROM no_such_table"], revert: [])
        let withBroken = Migrator(client: db, migrations: migrations + [broken], logger: logger)
        do {
            try await withBroken.migrate()
            XCTFail("expected the broken migration to fail")
        } catch {}
        await assertTableMissing("\(a)_x", db)
        let brokenRecorded = try await withBroken.appliedMigrations().contains("broken \(a)")
        XCTAssertFalse(brokenRecorded)

        let revertedAgain = try await migrator.revertLastBatch().count
        XCTAssertEqual(revertedAgain, 2)
        await db.shutdown()
    }

    private func assertTableMissing(_ table: String, _ db: PostgresClient, line: UInt = #line) async {
        let rows = try? await db.query("SELECT to_regclass(\(table))::text AS t")
        XCTAssertEqual(try rows?.first?.decode(column: "t", as: String?.self) ?? nil, nil, line: line)
    }
}
