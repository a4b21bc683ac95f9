import HTTP1
import WebTesting
import XCTest

/// Backpressure: responses are materialised whole, so a client that pipelines requests for
/// big responses without reading them must not make the server build them all.
final class BackpressureTests: XCTestCase {
    private static let pipelinedBigRequests = String(repeating: "GET /big HTTP/1.1\r\nHost: x\r\n\r\n", count: 40)
    /// `/big`'s body and a generous allowance for its head.
    private static let bigResponseBytes = (1 << 20) + 1024

    /// What the server holds settles once it stops taking requests: wait until the count of
    /// built responses stops moving.
    private func settledCount(_ responder: EchoResponder) async throws -> Int {
        var last = -1
        var count = responder.events.all.count
        while count != last {
            last = count
            try await Task.sleep(for: .milliseconds(300))
            count = responder.events.all.count
        }
        return count
    }

    func testPipeliningClientThatDoesNotReadStopsBeingServed() async throws {
        let responder = EchoResponder()
        try await withServer(loops: 1, responder: responder) { server in
            let reluctant = try RawConnection(server, receiveBufferSize: 16 * 1024)
            try reluctant.write(Self.pipelinedBigRequests)
            let built = try await settledCount(responder)
            // The kernel's buffers take a few MiB; the server builds one more, then waits.
            XCTAssertLessThan(built, 10, "\(built) of 40 responses built for a client that reads nothing")
            let limits = server.configuration.limits
            XCTAssertLessThanOrEqual(server.pendingOutputBytes, limits.outputHighWaterBytes + Self.bigResponseBytes)
            // Others are served meanwhile, and the reluctant client still gets everything once it reads.
            let other = try RawConnection(server)
            let started = ContinuousClock.now
            try other.write("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try other.readResponse().status.code, 200)
            XCTAssertLessThan(ContinuousClock.now - started, .milliseconds(500))
            for _ in 0..<40 { XCTAssertEqual(try reluctant.readResponse().body.count, 1 << 20) }
        }
    }

    /// The server-wide budget: with the per-connection marks out of the way, clients that read
    /// nothing still cannot make the server hold more than the budget plus the response each
    /// connection was building when it was reached.
    func testServerWideBudgetBoundsWhatNonReadingClientsHold() async throws {
        var limits = HTTPServerLimits()
        limits.outputHighWaterBytes = 64 << 20
        limits.outputLowWaterBytes = 64 << 20
        limits.maxPendingOutputBytes = 2 << 20
        let responder = EchoResponder()
        try await withServer(limits: limits, loops: 1, responder: responder) { server in
            let clients = try (0..<2).map { _ in try RawConnection(server, receiveBufferSize: 16 * 1024) }
            for client in clients {
                try client.write(String(repeating: "GET /big HTTP/1.1\r\nHost: x\r\n\r\n", count: 24))
            }
            let built = try await settledCount(responder)
            let bound = limits.maxPendingOutputBytes + (clients.count + 1) * Self.bigResponseBytes
            XCTAssertLessThanOrEqual(server.pendingOutputBytes, bound, "\(built) of 48 responses built")
            let other = try RawConnection(server)
            try other.write("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try other.readResponse().status.code, 200)
        }
    }
}
