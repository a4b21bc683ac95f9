import Foundation
import Postgres
import XCTest

// Interleavings a test forces in PostgreSQL: a transaction it holds open, and waiting until
// another connection's statement waits on a lock.

/// A transaction the test holds open: `statement` runs (taking its locks), then the
/// transaction waits for `finish()`, and commits.
final class HeldTransaction: Sendable {
    private let ran: AsyncStream<Void>
    private let release: AsyncStream<Void>.Continuation
    private let transaction: Task<Void, any Error>

    init(on db: PostgresClient, _ statement: PostgresQuery) {
        let (ran, statementRan) = AsyncStream<Void>.makeStream()
        let (released, release) = AsyncStream<Void>.makeStream()
        self.ran = ran
        self.release = release
        transaction = Task {
            try await db.withTransaction { tx in
                defer { statementRan.finish() }
                try await tx.execute(statement)
                statementRan.finish()
                for await _ in released {}
            }
        }
    }

    /// Returns once the statement ran (or failed: `finish()` then throws its error).
    func started() async throws {
        for await _ in ran {}
    }

    /// Lets the transaction commit, and waits until it has.
    func finish() async throws {
        release.finish()
        try await transaction.value
    }
}

extension PostgresQuery {
    /// SQL: a statement holding `text` (other than the asking one) waits on a lock.
    static func waitingOnALock(_ text: String) -> PostgresQuery {
        """
        EXISTS (SELECT 1 FROM pg_stat_activity
                WHERE wait_event_type = 'Lock' AND position(\(text) IN query) > 0 AND pid <> pg_backend_pid())
        """
    }
}

extension PostgresClient {
    /// Polls until `condition` (SQL) holds: what other connections do is seen only this way.
    func waitUntil(_ condition: PostgresQuery, file: StaticString = #filePath, line: UInt = #line) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if try await query("SELECT \(condition) AS held").first?.decode(column: "held", as: Bool.self) == true { return }
            try await Task.sleep(for: .milliseconds(5))
        }
        XCTFail("still not so after 10 s: \(condition.sql)", file: file, line: line)
    }
}
