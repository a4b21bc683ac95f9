import App
import AppTesting
import Postgres
import XCTest

extension TestApp {
    /// Runs `body` on the test database with every migration reverted, given the migrator and
    /// every migration's name. The next test migrates afresh whatever happens here, and if
    /// `body` throws, the schema is migrated back first so the error is the only damage.
    func withEveryMigrationReverted(_ body: (Migrator, [String]) async throws -> Void) async throws {
        TestDatabase.schemaWillChange()
        let migrator = til.migrator
        let all = migrator.migrations.map(\.name)
        try await migrator.revertAll()
        do {
            try await body(migrator, all)
        } catch {
            try await migrator.migrate()  // leave the schema as every other test expects it
            throw error
        }
    }
}
