import App
import Foundation
import Postgres
import Synchronization
import WebTesting
import XCTest

/// The one PostgreSQL database every app test shares (`DATABASE_URL`), made ready for each
/// test cheaply. The first test of the process reverts and reapplies every migration, so the
/// schema is exactly today's whatever an earlier run or branch left behind, and reads the
/// tables to reset from `pg_tables` (`ResetStatement`). Every later test empties those tables
/// in one statement, restarts their identity columns and seeds the admin again.
///
/// Tests that share it run one at a time: XCTest runs the cases of a `swift test` process
/// serially unless `--parallel` is given, and the Makefile says `--no-parallel` (Tests/README.md).
public enum TestDatabase {
    /// Tables a reset leaves as they are (besides the migrations' record): state that is costly
    /// to make and safe to share between tests: the signing keys (an RSA key takes 50 to 500 ms
    /// to generate). A test that changes them empties the table before and after
    /// (`withEmptySigningKeys`).
    public static let keptTables: Set<String> = ["signing_keys"]

    /// The reset for today's schema; nil until the first test migrated, and again after a
    /// test changed the schema.
    private static let reset = Mutex<ResetStatement?>(nil)

    /// One client for the whole process, opened by the first test: resets run on it, and
    /// in-process apps borrow it (`TIL(sharedDatabase:)`), so a test opens no connection.
    private static let sharedClient = Mutex<PostgresClient?>(nil)

    /// The process's client of the test database (the test configuration's, logging quietly).
    static func client() throws -> PostgresClient {
        try sharedClient.withLock { shared in
            if let shared { return shared }
            let configuration = try XCTUnwrap(try AppConfiguration.forTests())
            let client = PostgresClient(configuration: configuration.database, logger: .quiet("til-test-db"))
            shared = client
            return client
        }
    }

    /// Readies the database for a test of `til`. Call it before `til.configure(app)`: the
    /// previous test's app has shut down (its token purger awaited), and this one's jobs have
    /// not started, so nothing else writes while the tables are emptied.
    static func prepare(for til: TIL) async throws {
        if let statement = reset.withLock({ $0 }) {
            try await statement.run(on: try client())
            try await til.seedAdmin()
            try await til.seedBuiltInClients()
        } else {
            try await til.migrator.revertAll()
            try await til.migrator.migrate()
            let statement = try await ResetStatement.read(from: til.db, keeping: keptTables)
            reset.withLock { $0 = statement }
        }
    }

    /// Tells the harness that this test reverts or replaces migrations: the next test migrates
    /// from scratch, even when this one fails half-way. Call it before touching the schema.
    public static func schemaWillChange() {
        reset.withLock { $0 = nil }
    }
}
