import Dispatch
import HTTP1
import Logging
import Sockets
import Synchronization
import WebTesting
import XCTest

/// Graceful shutdown against HTTP's keep-alive close race: a request that reached the kernel
/// on an idle keep-alive connection just before the drain is served, not reset.
final class DrainRaceTests: XCTestCase {
    /// The drill that found it: a POST sent 0.2 ms before SIGTERM on an idle keep-alive
    /// connection got a reset. Here the loop is held with its drain queued, so the request's
    /// bytes wait in the kernel, their readiness event unhandled, when the drain runs.
    func testDrainServesARequestAlreadyInTheKernel() async throws {
        let responder = LoopCapturingResponder()
        let logger = Logger.quiet("test", level: .warning)
        let server = HTTPServer(
            configuration: .init(host: "127.0.0.1", port: 0, loopCount: 1), responder: responder, logger: logger)
        try server.start()
        let client = try RawConnection(port: server.port)
        try client.write("GET /first HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try client.readResponse().bodyString, "GET /first")
        let loop = try XCTUnwrap(responder.loop.withLock { $0 })

        // Hold the loop (first gate) while a second gate and the drain queue up behind it, so
        // both run in one turn with no readiness wait between them.
        let first = LoopGate(), second = LoopGate()
        first.hold(loop)
        XCTAssertTrue(first.waitUntilEntered())
        second.hold(loop)
        let shutdown = Task { await server.shutdown(gracePeriod: .seconds(5)) }
        try await Task.sleep(for: .milliseconds(200))  // shutdown has queued the drain by now
        first.release()
        XCTAssertTrue(second.waitUntilEntered())
        try client.write("GET /pending HTTP/1.1\r\nHost: x\r\n\r\n")
        second.release()

        let response = try client.readResponse()
        XCTAssertEqual(response.bodyString, "GET /pending")
        XCTAssertEqual(response.headers["Connection"], "close")
        XCTAssertTrue(client.isClosedByServer())
        client.close()  // ends the server's lingering close, so the shutdown need not wait for it
        await shutdown.value
        XCTAssertEqual(server.openConnections, 0)
    }
}

/// Answers "METHOD target" and remembers the event loop that served it.
private final class LoopCapturingResponder: HTTPResponder {
    let loop = Mutex<EventLoop?>(nil)

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        loop.withLock { $0 = $0 ?? EventLoop.current }
        return HTTPResponse(status: .ok, body: Array("\(request.head.method.rawValue) \(request.head.target)".utf8))
    }
}

/// Blocks an event loop's thread from inside (a queued work item) until released; every
/// wait is bounded, so a broken test fails instead of hanging.
private final class LoopGate: Sendable {
    private let entered = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)

    func hold(_ loop: EventLoop) {
        loop.execute { [entered, gate] in
            entered.signal()
            _ = gate.wait(timeout: .now() + 5)
        }
    }

    func waitUntilEntered() -> Bool { entered.wait(timeout: .now() + 5) == .success }

    func release() { gate.signal() }
}
