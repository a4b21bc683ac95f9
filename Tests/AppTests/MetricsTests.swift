import AppTesting
import Foundation
import Web
import WebTesting
import XCTest
@testable import App

/// `/metrics` on the real server: counters move with route patterns (never raw paths), login
/// outcomes are counted, the text is valid exposition format, and `METRICS=off` serves nothing.
final class MetricsTests: XCTestCase {
    /// Live: the scrape reads the server's own connection gauge.
    func testCountersMoveByRoutePatternMethodAndStatus() async throws {
        try await withTestApp(.live) { app in
            let acronym = try await Acronym.create(on: app)
            let before = try await scrape(app)

            let shown = try await app.sendRequest(to: "/api/acronyms/\(acronym.id)", method: .get)
            XCTAssertEqual(shown.status.code, 200)
            for path in ["/no/such/path", "/scanner/\(UUID())", "/wp-admin.php"] {
                let missing = try await app.sendRequest(to: path, method: .get)
                XCTAssertEqual(missing.status.code, 404)
            }
            let brewed = try await app.client.send(HTTPMethod(rawValue: "BREW"), "/coffee")
            XCTAssertEqual(brewed.status.code, 404)
            _ = try await app.client.session("admin")
            let failed = try await app.client.send(.post, "/api/users/login", auth: .basic("admin", "wrong"))
            XCTAssertEqual(failed.status.code, 401)

            let after = try await scrape(app)
            func moved(_ name: String, _ labels: [String: String]) -> Double {
                after.value(name, labels) - before.value(name, labels)
            }
            let acronymRoute = ["route": "/api/acronyms/:acronymID", "method": "GET"]
            XCTAssertEqual(moved("http_requests_total", acronymRoute.merging(["status": "200"]) { $1 }), 1)
            XCTAssertEqual(moved("http_request_duration_seconds_count", acronymRoute), 1)
            XCTAssertEqual(moved("http_request_duration_seconds_bucket", acronymRoute.merging(["le": "+Inf"]) { $1 }), 1)
            XCTAssertEqual(moved("http_requests_total", ["route": "unmatched", "method": "GET", "status": "404"]), 3)
            XCTAssertEqual(moved("http_requests_total", ["route": "unmatched", "method": "OTHER", "status": "404"]), 1)
            XCTAssertEqual(moved("til_logins_total", ["outcome": "success"]), 1)
            XCTAssertEqual(moved("til_logins_total", ["outcome": "failure"]), 1)
            XCTAssertEqual(moved("til_logins_total", ["outcome": "throttled"]), 0)
            XCTAssertEqual(moved("http_requests_total", ["route": "/api/users/login", "method": "POST", "status": "401"]), 1)

            let routes = Set(after.samples.compactMap { $0.labels["route"] })
            XCTAssertFalse(routes.contains { $0.contains("no/such") || $0.contains("scanner") || $0.contains(acronym.id.uuidString) })
            XCTAssertFalse(after.samples.contains { $0.labels["method"] == "BREW" })
            XCTAssertGreaterThanOrEqual(after.value("http_open_connections"), 1, "this scrape's own connection")
            for gauge in ["til_db_pool_connections_in_use", "til_db_pool_waiting", "til_db_pool_acquire_timeouts_total",
                          "til_bcrypt_queue_length", "til_bcrypt_running", "http_early_responses_total"] {
                XCTAssertTrue(after.contains(gauge), "\(gauge) is exposed")
            }
        }
    }

    func testScrapeIsValidExpositionFormat() async throws {
        try await withTestApp { app in
            _ = try await app.sendRequest(to: "/health", method: .get)
            let response = try await app.client.send(.get, "/metrics")
            XCTAssertEqual(response.status.code, 200)
            XCTAssertEqual(response.headers["Content-Type"], "text/plain; version=0.0.4; charset=utf-8")
            let text = PrometheusText(response.bodyString)
            XCTAssertEqual(text.malformed, [])
            XCTAssertGreaterThan(text.samples.count, 10)
            XCTAssertTrue(response.bodyString.contains("# TYPE http_request_duration_seconds histogram"))
        }
    }

    func testMetricsOffServesNothing() async throws {
        try await withTestApp(settings: ["METRICS": "off"]) { app in
            let response = try await app.client.send(.get, "/metrics")
            XCTAssertEqual(response.status.code, 404)
        }
    }

    func testMetricsSettings() throws {
        func exposure(_ variables: [String: String], _ environment: Environment = .development) throws -> MetricsExposure {
            try MetricsExposure(reader: ConfigReader(environment: variables), environment: environment)
        }
        XCTAssertEqual(try exposure([:]), .serverPort)
        XCTAssertEqual(try exposure([:], .testing), .serverPort)
        XCTAssertEqual(try exposure([:], .production), .productionWithoutPort)
        XCTAssertEqual(try exposure(["METRICS": "on"], .production), .productionWithoutPort, "on means: where allowed")
        XCTAssertEqual(try exposure(["METRICS": "off", "METRICS_PORT": "9100"]), .off)
        XCTAssertEqual(try exposure(["METRICS_PORT": "9100"]), .port(9100, host: "127.0.0.1"))
        XCTAssertEqual(try exposure(["METRICS_PORT": "9100"], .production), .port(9100, host: "127.0.0.1"))
        XCTAssertEqual(try exposure(["METRICS_PORT": "9100", "METRICS_HOST": "::"], .production), .port(9100, host: "::"))
        XCTAssertThrowsError(try exposure(["METRICS": "maybe"]))
        XCTAssertThrowsError(try exposure(["METRICS_PORT": "70000"]))
        XCTAssertThrowsError(try exposure(["METRICS": "off", "METRICS_PORT": "70000"]), "checked even when off")
        XCTAssertThrowsError(try exposure(["METRICS_HOST": "metrics.example"]), "checked even without a port")
    }

    private func scrape(_ app: TestApp) async throws -> PrometheusText {
        let response = try await app.client.send(.get, "/metrics")
        XCTAssertEqual(response.status.code, 200)
        return PrometheusText(response.bodyString)
    }
}
