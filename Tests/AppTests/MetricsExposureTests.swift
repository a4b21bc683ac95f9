import App
import AppTesting
import Foundation
import Web
import WebTesting
import XCTest

/// Issue 17: in production `/metrics` is never on the API's port; it is served only on
/// `METRICS_PORT`, a listener of its own on loopback unless `METRICS_HOST` says otherwise, which
/// several processes share (`SO_REUSEPORT`). Development and testing keep it on the API port.
final class MetricsExposureTests: XCTestCase {
    private let production = ["ENVIRONMENT": "production", "ADMIN_PASSWORD": "Pr0duction-admin-pass"]
    private var servers: [ServerProcess] = []

    override func tearDown() async throws {
        await servers.stopAll(showingOutputIf: hasFailed)
        servers = []
    }

    func testProductionServesNoMetricsOnTheAPIPort() async throws {
        try await withTestApp(settings: production) { app in
            let response = try await app.client.send(.get, "/metrics")
            XCTAssertEqual(response.status.code, 404, response.bodyString)
            let health = try await app.client.send(.get, "/health")
            XCTAssertEqual(health.status.code, 200, "the API itself is served")
        }
    }

    func testProductionServesMetricsOnMetricsPortOnLoopback() async throws {
        let metricsPort = try ServerProcess.freePort()
        try await withTestApp(settings: production) { _ in }  // migrated, the admin seeded with a production password
        // The API on 127.0.0.2: the metrics listener must not follow it there.
        let server = try start(production.merging(["METRICS_PORT": "\(metricsPort)"]) { $1 }, hostname: "127.0.0.2")
        try await server.waitUntilHealthy()
        let onAPIPort = try await server.client.send(.get, "/metrics")
        XCTAssertEqual(onAPIPort.status.code, 404, onAPIPort.bodyString)
        let scrape = try await TestClient(host: "127.0.0.1", port: metricsPort).send(.get, "/metrics")
        XCTAssertEqual(scrape.status.code, 200, scrape.bodyString)
        XCTAssertEqual(PrometheusText(scrape.bodyString).malformed, [])
        let followed = await answers(host: "127.0.0.2", port: metricsPort)
        XCTAssertFalse(followed, "metrics followed the API's host")
    }

    func testMetricsHostChoosesWhereTheMetricsListen() async throws {
        let metricsPort = try ServerProcess.freePort()
        let settings = production.merging(["METRICS_PORT": "\(metricsPort)", "METRICS_HOST": "127.0.0.3"]) { $1 }
        try await withTestApp(settings: settings) { _ in
            let scrape = try await TestClient(host: "127.0.0.3", port: metricsPort).send(.get, "/metrics")
            XCTAssertEqual(scrape.status.code, 200, scrape.bodyString)
            let onLoopback = await answers(host: "127.0.0.1", port: metricsPort)
            XCTAssertFalse(onLoopback, "METRICS_HOST was not used")
        }
    }

    /// The cluster (several til-servers on one host, one METRICS_PORT in their environment) and
    /// a restart (the new process beside the old one) both need the port shared.
    func testTwoServersShareAMetricsPort() async throws {
        let metricsPort = try ServerProcess.freePort()
        try await withTestApp { _ in }
        let settings = ["METRICS_PORT": "\(metricsPort)"]
        let first = try start(settings)
        try await first.waitUntilHealthy()
        let second = try start(settings)
        try await second.waitUntilHealthy()
        XCTAssertTrue(first.process.isRunning && second.process.isRunning)
        let metrics = TestClient(port: metricsPort)
        for _ in 0..<4 {
            let scrape = try await metrics.send(.get, "/metrics", headers: ["Connection": "close"])
            XCTAssertEqual(scrape.status.code, 200)
        }
        await first.stop()
        XCTAssertEqual(first.process.terminationStatus, 0)
        let scrape = try await TestClient(port: metricsPort).send(.get, "/metrics", headers: ["Connection": "close"])
        XCTAssertEqual(scrape.status.code, 200, "the second server still serves the port alone")
    }

    func testDevelopmentStillServesMetricsOnTheAPIPort() async throws {
        for environment in ["development", "testing"] {
            try await withTestApp(settings: ["ENVIRONMENT": environment]) { app in
                let response = try await app.client.send(.get, "/metrics")
                XCTAssertEqual(response.status.code, 200, environment)
                XCTAssertEqual(PrometheusText(response.bodyString).malformed, [], environment)
            }
        }
    }

    private func start(_ settings: [String: String], hostname: String = "127.0.0.1") throws -> ServerProcess {
        let server = try ServerProcess(environment: try ServerProcess.testEnvironment(settings), hostname: hostname)
        servers.append(server)
        return server
    }

    /// True when something accepts connections and answers on `host:port`.
    private func answers(host: String, port: Int) async -> Bool {
        (try? await TestClient(host: host, port: port).send(.get, "/metrics", headers: ["Connection": "close"])) != nil
    }
}
