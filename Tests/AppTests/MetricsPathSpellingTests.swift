import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Production serves no `/metrics` on the API's port (issue 17) — in no spelling of the path
/// either: case, percent-encoding, dot segments, doubled or trailing slashes, parameters, or
/// look-alike letters. Each gets an error, never the scrape.
final class MetricsPathSpellingTests: XCTestCase {
    func testProductionServesNoSpellingOfMetricsOnTheAPIPort() async throws {
        try await withTestApp(settings: ["ENVIRONMENT": "production", "ADMIN_PASSWORD": "Pr0duction-admin-pass"]) { app in
            let spellings = [
                "/metrics", "/metrics/", "/METRICS", "/Metrics", "/%6Detrics", "/%6detrics", "/%2Fmetrics", "//metrics", "/./metrics",
                "/api/../metrics", "/metrics%2F", "/metrics;x", "/metrics?format=prometheus", "/metrics%00", "/%EF%BD%8Detrics",
                "/me%74rics", "/metrics%20", "/metrics#x",
            ]
            for path in spellings {
                let response = try await app.client.send(.get, path)
                XCTAssertTrue((400..<500).contains(response.status.code), "\(path): \(response.status.code)")
                XCTAssertFalse(response.bodyString.contains("# HELP") || response.bodyString.contains("# TYPE"), "\(path) scraped")
            }
            let health = try await app.client.send(.get, "/health")
            XCTAssertEqual(health.status.code, 200, "the API itself is served")
        }
    }
}
