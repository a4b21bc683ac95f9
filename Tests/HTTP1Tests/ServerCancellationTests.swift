import HTTP1
import WebTesting
import XCTest

/// A client that leaves mid-request gets its handler cancelled and its connection dropped;
/// one that pipelines more requests does not.
final class ServerCancellationTests: XCTestCase {
    func testClientClosingMidRequestCancelsTheHandler() async throws {
        let responder = EchoResponder()
        try await withServer(responder: responder) { server in
            let connection = try RawConnection(server)
            try connection.write("GET /slow?ms=30000 HTTP/1.1\r\nHost: x\r\n\r\n")
            let started = await eventually { responder.events.contains("started /slow?ms=30000") }
            XCTAssertTrue(started)
            let closedAt = ContinuousClock.now
            connection.close()
            let cancelled = await eventually(within: .seconds(2)) { responder.events.contains("cancelled /slow?ms=30000") }
            XCTAssertTrue(cancelled, "\(responder.events.all)")
            XCTAssertLessThan(ContinuousClock.now - closedAt, .seconds(2))
            let released = await eventually(within: .seconds(2)) { server.openConnections == 0 }
            XCTAssertTrue(released, "open connections: \(server.openConnections)")
            // The server goes on serving.
            let other = try RawConnection(server)
            try other.write("GET /after HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try other.readResponse().bodyString, "GET /after body=0:")
        }
    }

    func testManyVanishingClientsLeaveNoConnectionBehind() async throws {
        let responder = EchoResponder()
        try await withServer(responder: responder) { server in
            for index in 0..<20 {
                let connection = try RawConnection(server)
                try connection.write("GET /slow?ms=\(30000 + index) HTTP/1.1\r\nHost: x\r\n\r\n")
                connection.close()
            }
            let released = await eventually(within: .seconds(3)) { server.openConnections == 0 }
            XCTAssertTrue(released, "open connections: \(server.openConnections)")
            XCTAssertFalse(responder.events.all.contains { $0.hasPrefix("finished") })
        }
    }

    func testPipelinedRequestDuringAHandlerIsNotAHangUp() async throws {
        let responder = EchoResponder()
        try await withServer(responder: responder) { server in
            let connection = try RawConnection(server)
            try connection.write("GET /slow?ms=300 HTTP/1.1\r\nHost: x\r\n\r\n")
            let started = await eventually { responder.events.contains("started /slow?ms=300") }
            XCTAssertTrue(started)
            // More bytes arrive while the first handler runs: readable, not gone.
            try connection.write("GET /second HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try connection.readResponse().bodyString, "GET /slow?ms=300 body=0:")
            XCTAssertEqual(try connection.readResponse().bodyString, "GET /second body=0:")
            XCTAssertEqual(responder.events.all, ["started /slow?ms=300", "finished /slow?ms=300"])
        }
    }
}
