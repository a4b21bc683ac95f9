import HTTP1
import WebTesting
import XCTest

/// Bad input, limits and misbehaving clients: each gets its status, and the server goes on.
final class ServerErrorTests: XCTestCase {
    private func expect(
        _ request: String, status: Int, limits: HTTPServerLimits = .init(), file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        try await withServer(limits: limits) { server in
            let connection = try RawConnection(server)
            try connection.write(request)
            let responses = TestResponse.parseAll(try connection.readUntilClose())
            XCTAssertEqual(responses.first?.status.code, status, file: file, line: line)
            XCTAssertEqual(responses.first?.headers["Connection"], "close", file: file, line: line)
            XCTAssertTrue(responses.first?.bodyString.contains(#""error":true"#) ?? false, file: file, line: line)
            // The server still serves others.
            let other = try RawConnection(server)
            try other.write("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try other.readResponse().status.code, 200, file: file, line: line)
        }
    }

    func testGarbageIs400() async throws {
        try await expect("\u{01}\u{02}garbage\r\n\r\n", status: 400)
    }

    func testSmugglingAttemptsAre400() async throws {
        try await expect("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", status: 400)
        try await expect("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", status: 400)
        try await expect("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", status: 400)
    }

    func testLimitsHaveTheirStatuses() async throws {
        var limits = HTTPServerLimits()
        limits.maxRequestLineBytes = 100
        limits.maxHeaderBytes = 200
        limits.maxBodyBytes = 10
        try await expect("GET /\(String(repeating: "a", count: 200)) HTTP/1.1\r\nHost: x\r\n\r\n", status: 414, limits: limits)
        try await expect("GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 300))\r\n\r\n", status: 431, limits: limits)
        try await expect("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n", status: 413, limits: limits)
    }

    func testSlowClientGets408AndIsClosed() async throws {
        var limits = HTTPServerLimits()
        limits.requestReadTimeout = .milliseconds(500)
        try await withServer(limits: limits) { server in
            let slow = try RawConnection(server)
            try slow.write("GET / HTTP/1.1\r\nHost: x\r\n")  // never finishes its head
            let started = ContinuousClock.now
            let responses = TestResponse.parseAll(try slow.readUntilClose())
            XCTAssertEqual(responses.first?.status.code, 408)
            XCTAssertLessThan(ContinuousClock.now - started, .seconds(4))
        }
    }

    func testIdleKeepAliveConnectionIsClosed() async throws {
        var limits = HTTPServerLimits()
        limits.idleTimeout = .milliseconds(300)
        try await withServer(limits: limits) { server in
            let idle = try RawConnection(server)
            try idle.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try idle.readResponse().status.code, 200)
            XCTAssertTrue(idle.isClosedByServer())
        }
    }

    func testConnectionLimitAnswers503() async throws {
        var limits = HTTPServerLimits()
        limits.maxConnections = 2
        try await withServer(limits: limits, loops: 1) { server in
            let first = try RawConnection(server)
            let second = try RawConnection(server)
            try first.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            try second.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try first.readResponse()
            _ = try second.readResponse()
            let third = try RawConnection(server)
            XCTAssertEqual(TestResponse.parseAll(try third.readUntilClose()).first?.status.code, 503)
        }
    }

    func testClientVanishingMidRequestAndMidResponseIsHarmless() async throws {
        try await withServer { server in
            for _ in 0..<20 {
                let gone = try RawConnection(server)
                try gone.write("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc")
            }
            for _ in 0..<5 {
                let gone = try RawConnection(server)
                try gone.write("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
            }
            try await Task.sleep(for: .milliseconds(200))
            let other = try RawConnection(server)
            try other.write("GET /still HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try other.readResponse().bodyString, "GET /still body=0:")
        }
    }
}
