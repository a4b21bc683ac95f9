import AppTesting
import Foundation
import Logging
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Issue 22: every request that uses the database is timed in parts (waiting for a pooled
/// connection, inside its statements, the rest), the parts are histograms in `/metrics`, and a
/// request slower than 100 ms leaves one `slow request` line saying where its time went.
final class DatabaseTimingTests: XCTestCase {
    /// The test holds a row lock for 300 ms: an update of that row waits inside PostgreSQL, and
    /// the line must put that wait in `database_ms`, not in the pool or on the loop.
    func testASlowStatementIsLoggedWithItsTimeInTheDatabase() async throws {
        let capture = LogfmtCapture()
        try await withTestApp(logger: capture.logger(level: .notice)) { app in
            let acronym = try await Acronym.create(on: app)
            let token = try await app.client.session("admin").value
            let (db, id) = (app.til.db, acronym.id)
            let locked = Task {
                try await db.withTransaction { tx in
                    try await tx.execute("SELECT 1 FROM acronyms WHERE id = \(id) FOR UPDATE")
                    try await Task.sleep(for: .milliseconds(300))
                }
            }
            try await Task.sleep(for: .milliseconds(50))  // the lock is taken
            let updated = try await app.client.send(
                .put, "/api/acronyms/\(acronym.id)", json: ["short": "SLOW", "long": "Waited for a lock"], auth: .bearer(token))
            XCTAssertEqual(updated.status.code, 200)
            try await locked.value

            let slow = capture.lines.compactMap(LogfmtReader.record).filter { $0.contains { $0 == ("msg", "slow request") } }
            XCTAssertEqual(slow.count, 1, capture.text)
            let fields = Dictionary(slow.first ?? [], uniquingKeysWith: { $1 })
            XCTAssertEqual(fields["method"], "PUT")
            XCTAssertEqual(fields["path"], "/api/acronyms/\(acronym.id)")
            XCTAssertEqual(fields["status"], "200")
            let database = Double(fields["database_ms"] ?? "") ?? 0
            let total = Double(fields["total_ms"] ?? "") ?? 0
            XCTAssertGreaterThanOrEqual(database, 200, "the lock wait is time inside a statement")
            XCTAssertLessThan(Double(fields["acquire_ms"] ?? "") ?? .infinity, 50, "a connection was free")
            XCTAssertGreaterThanOrEqual(total, database)
            // Issue 22: the token check and the update are one statement (prepared first on a new connection).
            XCTAssertTrue((1...2).contains(Int(fields["statements"] ?? "") ?? 0), "statements: \(fields["statements"] ?? "none")")
        }
    }

    func testRequestsThatUseTheDatabaseFillBothHistograms() async throws {
        try await withTestApp { app in
            let acronym = try await Acronym.create(on: app)
            let before = PrometheusText(try await app.client.send(.get, "/metrics").bodyString)
            for _ in 0..<3 {
                let shown = try await app.client.send(.get, "/api/acronyms/\(acronym.id)")
                XCTAssertEqual(shown.status.code, 200)
            }
            let health = try await app.client.send(.get, "/health")  // no database: not counted
            XCTAssertEqual(health.status.code, 200)
            let after = PrometheusText(try await app.client.send(.get, "/metrics").bodyString)
            for family in [DatabaseTimingMiddleware.acquireFamily, DatabaseTimingMiddleware.statementFamily] {
                XCTAssertEqual(after.value("\(family)_count") - before.value("\(family)_count"), 3, family)
                XCTAssertGreaterThan(after.value("\(family)_sum"), before.value("\(family)_sum") - 1e-9, family)
            }
            XCTAssertEqual(after.value("\(DatabaseTimingMiddleware.statementFamily)_bucket", ["le": "+Inf"])
                - before.value("\(DatabaseTimingMiddleware.statementFamily)_bucket", ["le": "+Inf"]), 3)
        }
    }
}
