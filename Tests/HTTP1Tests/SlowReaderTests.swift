import HTTP1
import WebTesting
import XCTest

/// Clients that send requests but do not read the responses: their connections are cut once
/// no response byte moves for the write-stall timeout, whatever the connection is doing.
final class SlowReaderTests: XCTestCase {
    /// Pipelined requests for large responses, never read: after the first responses fill the
    /// kernel's buffers, the rest waits in the server. A keep-alive connection in its reading
    /// phase (nothing half-received) used to keep that output forever.
    func testClientThatNeverReadsIsCutAfterTheWriteStallTimeout() async throws {
        var limits = HTTPServerLimits()
        limits.writeStallTimeout = .milliseconds(300)
        try await withServer(limits: limits, loops: 1) { server in
            let reluctant = try RawConnection(server, receiveBufferSize: 16 * 1024)
            try reluctant.write(String(repeating: "GET /big HTTP/1.1\r\nHost: x\r\n\r\n", count: 8))
            let opened = await eventually(within: .seconds(2)) { server.openConnections == 1 }
            XCTAssertTrue(opened)
            let cut = await eventually(within: .seconds(5)) { server.openConnections == 0 }
            XCTAssertTrue(cut, "a connection whose client never reads is still open")
        }
    }
}
