import Foundation
import Web
import WebTesting
import XCTest

/// `til-server serve --max-connections N`: with N connections open, the next one is answered
/// 503 at once and closed (the idle-connections drill raises the limit this way).
final class ConnectionLimitOptionTests: XCTestCase {
    func testTheConnectionOverTheLimitGets503() async throws {
        let server = try ServerProcess(environment: try ServerProcess.testEnvironment(), arguments: ["--max-connections", "2"])
        do {
            try await server.waitUntilHealthy()
            let held = [try await servedConnection(port: server.port), try await servedConnection(port: server.port)]
            let refused = try RawConnection(port: server.port)
            let response = try refused.readResponse()
            XCTAssertEqual(response.status.code, 503)
            XCTAssertTrue(response.bodyString.contains("too many open connections"), response.bodyString)
            XCTAssertTrue(refused.isClosedByServer())
            withExtendedLifetime(held) {}  // the two served connections stay open until here
        } catch {
            print("til-server output:\n\(server.output)")
            await server.stop()
            throw error
        }
        await server.stop()
    }

    func testANonsenseLimitRefusesToStart() async throws {
        let server = try ServerProcess(environment: try ServerProcess.testEnvironment(["MAX_CONNECTIONS": "lots"]))
        let status = await server.waitForExit()
        XCTAssertNotNil(status, "started with MAX_CONNECTIONS=lots")
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(server.output.contains("MAX_CONNECTIONS"), server.output)
        if status == nil { await server.stop() }
    }

    /// A connection that got 200 for `GET /health` and stays open. Retried for a while: the
    /// server may still count the health check's connection it has not yet seen closed.
    private func servedConnection(port: Int) async throws -> RawConnection {
        let deadline = ContinuousClock.now + .seconds(5)
        while true {
            let connection = try RawConnection(port: port)
            try connection.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try connection.readResponse()
            if response.status.code == 200 || ContinuousClock.now > deadline { return connection }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
