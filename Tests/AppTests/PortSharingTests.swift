import Foundation
import Web
import WebTesting
import XCTest

/// A second `til-server` on a port in use fails with a clear message, unless it is started
/// with `--reuse-port` (a zero-downtime restart: the new process joins, the old one leaves).
final class PortSharingTests: XCTestCase {
    private var servers: [ServerProcess] = []

    override func tearDown() async throws {
        await servers.stopAll(showingOutputIf: hasFailed)
        servers = []
    }

    private func start(port: Int? = nil, arguments: [String] = []) throws -> ServerProcess {
        let server = try ServerProcess(environment: try ServerProcess.testEnvironment(), port: port, arguments: arguments)
        servers.append(server)
        return server
    }

    func testSecondServerOnAPortInUseFailsWithAClearMessage() async throws {
        let first = try start()
        try await first.waitUntilHealthy()
        let second = try start(port: first.port)
        let status = await second.waitForExit()
        XCTAssertNotNil(status, "the second server is running beside the first")
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(second.output.contains("already in use"), second.output)
        XCTAssertTrue(second.output.contains("--reuse-port"), second.output)
        let health = try await first.client.send(.get, "/health")
        XCTAssertEqual(health.status.code, 200)
    }

    func testReusePortTakesOverWithoutDowntime() async throws {
        let old = try start()
        try await old.waitUntilHealthy()
        let new = try start(port: old.port, arguments: ["--reuse-port"])
        // Its /health would be answered by either process: wait for its own "listening" line.
        let listening = await eventually(within: .seconds(15)) { new.output.contains("listening on") || !new.process.isRunning }
        XCTAssertTrue(listening && new.process.isRunning, new.output)
        await old.stop()
        XCTAssertEqual(old.process.terminationStatus, 0)
        // The port is still served: by the new process alone.
        for _ in 0..<10 {
            let health = try await new.client.send(.get, "/health")
            XCTAssertEqual(health.status.code, 200)
        }
    }
}
