import AppTesting
import Foundation
import Logging
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Issue 22: every lease of a pooled connection is timed in parts (waiting for it, inside its
/// statements, the rest of the time it was held), the parts are histograms in `/metrics`, a
/// lease slower than 100 ms leaves a `slow database lease` line saying where its time went,
/// and a request slower than 100 ms a `slow request` line with its total.
final class DatabaseTimingTests: XCTestCase {
    /// The test holds a row lock for 300 ms: an update of that row waits inside PostgreSQL, and
    /// its lease's line must put that wait in `database_ms`, not in the pool or on the loop;
    /// the holder's own lease spent its time outside statements (`other_ms`).
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

            let records = capture.lines.compactMap(LogfmtReader.record).map { Dictionary($0, uniquingKeysWith: { $1 }) }
            let requests = records.filter { $0["msg"] == "slow request" }
            XCTAssertEqual(requests.count, 1, capture.text)
            XCTAssertEqual(requests.first?["method"], "PUT")
            XCTAssertEqual(requests.first?["path"], "/api/acronyms/\(acronym.id)")
            XCTAssertEqual(requests.first?["route"], "/api/acronyms/:acronymID")
            XCTAssertEqual(requests.first?["status"], "200")
            XCTAssertGreaterThanOrEqual(Double(requests.first?["total_ms"] ?? "") ?? 0, 200)

            let leases = records.filter { $0["msg"] == "slow database lease" }
            XCTAssertEqual(leases.count, 2, "the update's and the lock holder's: \(capture.text)")
            func value(_ record: [String: String]?, _ key: String) -> Double { Double(record?[key] ?? "") ?? -1 }
            let update = leases.first { value($0, "database_ms") >= 200 }
            XCTAssertNotNil(update, "the lock wait is time inside a statement: \(capture.text)")
            XCTAssertLessThan(value(update, "acquire_ms"), 50, "a connection was free")
            XCTAssertLessThan(value(update, "other_ms"), 100)
            XCTAssertEqual(update?["database"], "primary")
            // Issue 22: the token check and the update are one statement (prepared first on a new connection).
            XCTAssertTrue((1...2).contains(Int(update?["statements"] ?? "") ?? 0), "statements: \(update?["statements"] ?? "none")")
            let holder = leases.first { value($0, "database_ms") < 200 }
            XCTAssertGreaterThanOrEqual(value(holder, "other_ms"), 250, "the holder slept with its connection")
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
            for family in [LeaseHistograms.acquireFamily, LeaseHistograms.statementFamily] {
                XCTAssertEqual(after.value("\(family)_count") - before.value("\(family)_count"), 3, family)
                XCTAssertGreaterThan(after.value("\(family)_sum"), before.value("\(family)_sum") - 1e-9, family)
            }
            XCTAssertEqual(after.value("\(LeaseHistograms.statementFamily)_bucket", ["le": "+Inf"])
                - before.value("\(LeaseHistograms.statementFamily)_bucket", ["le": "+Inf"]), 3)
        }
    }
}
