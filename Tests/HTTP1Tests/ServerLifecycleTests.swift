import HTTP1
import Logging
import WebTesting
import XCTest

/// Many clients at once, and graceful shutdown.
final class ServerLifecycleTests: XCTestCase {
    func testConcurrentClients() async throws {
        try await withServer { server in
            let port = server.port
            try await withThrowingTaskGroup(of: Int.self) { group in
                for client in 0..<32 {
                    group.addTask {
                        try await onThread {
                            let connection = try RawConnection(port: port)
                            var ok = 0
                            for index in 0..<20 {
                                try connection.write("GET /c\(client)-\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
                                if try connection.readResponse().bodyString == "GET /c\(client)-\(index) body=0:" { ok += 1 }
                            }
                            return ok
                        }
                    }
                }
                var total = 0
                for try await ok in group { total += ok }
                XCTAssertEqual(total, 32 * 20)
            }
        }
    }

    func testGracefulShutdownFinishesInFlightAndClosesIdle() async throws {
        let server = HTTPServer(
            configuration: .init(host: "127.0.0.1", port: 0, loopCount: 2), responder: EchoResponder(),
            logger: Logger(label: "test"))
        try server.start()
        let port = server.port
        let idle = try RawConnection(port: port)
        try idle.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try idle.readResponse()

        let busy = try RawConnection(port: port)
        try busy.write("GET /slow?ms=300 HTTP/1.1\r\nHost: x\r\n\r\n")
        try await Task.sleep(for: .milliseconds(50))

        let started = ContinuousClock.now
        await server.shutdown(gracePeriod: .seconds(5))
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(3))
        // The in-flight request got its full response, marked close.
        let responses = TestResponse.parseAll(try busy.readUntilClose())
        XCTAssertEqual(responses.first?.bodyString, "GET /slow?ms=300 body=0:")
        XCTAssertEqual(responses.first?.headers["Connection"], "close")
        XCTAssertTrue(idle.isClosedByServer())
        XCTAssertThrowsError(try RawConnection(port: port, timeout: .seconds(1)))
    }
}
