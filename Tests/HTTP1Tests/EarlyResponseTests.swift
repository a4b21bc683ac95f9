import HTTP1
import Logging
import WebTesting
import XCTest

/// Answers the server gives before any responder sees a request (a parse error, the read
/// timeout, the connection limit) reach the log, rate-limited, and are counted.
final class EarlyResponseTests: XCTestCase {
    private func sendGarbage(to server: HTTPServer) throws -> Int? {
        let connection = try RawConnection(server)
        try connection.write("\u{01}garbage\r\n\r\n")
        return TestResponse.parseAll(try connection.readUntilClose()).first?.status.code
    }

    func testParseErrorsAndTimeoutsAreLoggedWithTheirAddress() async throws {
        let capture = LogCapture()
        var limits = HTTPServerLimits()
        limits.requestReadTimeout = .milliseconds(300)
        try await withServer(limits: limits, logger: capture.logger()) { server in
            XCTAssertEqual(try sendGarbage(to: server), 400)
            let slow = try RawConnection(server)
            try slow.write("GET / HTTP/1.1\r\n")
            XCTAssertEqual(TestResponse.parseAll(try slow.readUntilClose()).first?.status.code, 408)
            let lines = capture.lines.filter { $0.message.hasPrefix("400 ") || $0.message.hasPrefix("408 ") }
            XCTAssertEqual(lines.map { String($0.message.prefix(3)) }, ["400", "408"], capture.lines.map(\.fullText).joined(separator: "\n"))
            XCTAssertEqual(lines.first?.metadata["address"], "127.0.0.1")
            XCTAssertEqual(lines.first?.level, .info)
            var expected = EarlyResponseCounts()
            expected.badRequest = 1
            expected.requestTimeout = 1
            XCTAssertEqual(server.earlyResponses, expected)
        }
    }

    /// A flood of garbage must not become a flood of log lines: a few per second, then one
    /// line saying how many were left out.
    func testLinesAreRateLimitedWithASummaryOfTheRest() async throws {
        let capture = LogCapture()
        var limits = HTTPServerLimits()
        limits.maxEarlyResponseLogLinesPerSecond = 3
        try await withServer(limits: limits, logger: capture.logger()) { server in
            for _ in 0..<12 { XCTAssertEqual(try sendGarbage(to: server), 400) }
            func logged() -> (lines: Int, suppressed: Int) {
                let lines = capture.lines
                let answers = lines.filter { $0.message.hasPrefix("400 ") }.count
                let suppressed = lines.compactMap { $0.metadata["suppressed"].flatMap { Int($0) } }.reduce(0, +)
                return (answers, suppressed)
            }
            let summarised = await eventually(within: .seconds(4)) { logged().lines + logged().suppressed == 12 }
            XCTAssertTrue(summarised, "\(logged())")
            XCTAssertLessThan(logged().lines, 12)
            XCTAssertEqual(server.earlyResponses.badRequest, 12)
        }
    }

    func testEveryKindOfEarlyResponseIsCounted() async throws {
        var limits = HTTPServerLimits()
        limits.maxRequestLineBytes = 100
        limits.maxHeaderBytes = 200
        limits.maxBodyBytes = 10
        limits.maxConnections = 1
        try await withServer(limits: limits, loops: 1) { server in
            let requests = [
                "GET /\(String(repeating: "a", count: 200)) HTTP/1.1\r\nHost: x\r\n\r\n",
                "GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 300))\r\n\r\n",
                "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n",
                "GET / HTTP/1.2\r\nHost: x\r\n\r\n",
            ]
            for request in requests {
                let connection = try RawConnection(server)
                try connection.write(request)
                _ = try connection.readUntilClose()
            }
            let held = try RawConnection(server)
            try held.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try held.readResponse().status.code, 200)
            let refused = try RawConnection(server)
            XCTAssertEqual(TestResponse.parseAll(try refused.readUntilClose()).first?.status.code, 503)
            var expected = EarlyResponseCounts()
            expected.uriTooLong = 1
            expected.headerFieldsTooLarge = 1
            expected.contentTooLarge = 1
            expected.versionNotSupported = 1
            expected.connectionLimit = 1
            let counted = await eventually { server.earlyResponses == expected }
            XCTAssertTrue(counted, "\(server.earlyResponses)")
            XCTAssertEqual(server.earlyResponses.total, 5)
        }
    }
}
