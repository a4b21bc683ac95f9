import App
import AppTesting
import Foundation
import Web
import WebTesting
import XCTest

/// `METRICS_PORT=N` on a real `til-server` process: `/metrics` moves to its own port (and
/// off the API's), counts what the API port served, and that port serves nothing else.
final class MetricsPortTests: XCTestCase {
    func testMetricsMoveToTheirOwnPort() async throws {
        try await withTestApp { _ in }  // a migrated test database, as every AppTests case gets
        let metricsPort = try ServerProcess.freePort()
        let server = try ServerProcess(environment: try ServerProcess.testEnvironment(["METRICS_PORT": String(metricsPort)]))
        defer { if hasFailed { print("til-server output:\n\(server.output)") } }
        do {
            try await server.waitUntilHealthy()
            let metrics = TestClient(port: metricsPort)

            let onAPIPort = try await server.client.send(.get, "/metrics")
            XCTAssertEqual(onAPIPort.status.code, 404, "not exposed beside the API")
            _ = try await server.client.send(.get, "/api/acronyms")

            let scrape = try await metrics.send(.get, "/metrics")
            XCTAssertEqual(scrape.status.code, 200)
            let text = PrometheusText(scrape.bodyString)
            XCTAssertEqual(text.malformed, [])
            XCTAssertGreaterThanOrEqual(text.value("http_requests_total", ["route": "/api/acronyms", "method": "GET", "status": "200"]), 1)
            XCTAssertGreaterThanOrEqual(text.value("http_requests_total", ["route": "unmatched", "method": "GET", "status": "404"]), 1)

            let elsewhere = try await metrics.send(.get, "/api/acronyms")
            XCTAssertEqual(elsewhere.status.code, 404)
            XCTAssertTrue(elsewhere.bodyString.contains("\"error\":true"), elsewhere.bodyString)
            let posted = try await metrics.send(.post, "/metrics")
            XCTAssertEqual(posted.status.code, 405)
            XCTAssertEqual(posted.headers["Allow"], "GET, HEAD")
            XCTAssertTrue(server.output.contains("metrics on http://127.0.0.1:\(metricsPort)/metrics"), server.output)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}
