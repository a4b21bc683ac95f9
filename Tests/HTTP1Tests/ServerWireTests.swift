import HTTP1
import WebTesting
import XCTest

/// The server over a real loopback socket: keep-alive, pipelining, framing, errors.
final class ServerWireTests: XCTestCase {
    func testKeepAliveServesManyRequestsOnOneConnection() async throws {
        try await withServer { server in
            let connection = try RawConnection(server)
            for index in 0..<5 {
                try connection.write("GET /n\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
                let response = try connection.readResponse()
                XCTAssertEqual(response.status.code, 200)
                XCTAssertEqual(response.bodyString, "GET /n\(index) body=0:")
                XCTAssertNil(response.headers["Connection"])
                XCTAssertNotNil(response.headers["Date"])
                XCTAssertEqual(response.headers["Server"], "TIL")
            }
        }
    }

    func testPipelinedResponsesComeBackInRequestOrder() async throws {
        try await withServer { server in
            let connection = try RawConnection(server)
            // The first is slow: its response must still come first.
            try connection.write(
                "GET /slow?ms=100 HTTP/1.1\r\nHost: x\r\n\r\nGET /second HTTP/1.1\r\nHost: x\r\n\r\n"
                + "POST /third HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
            XCTAssertEqual(try connection.readResponse().bodyString, "GET /slow?ms=100 body=0:")
            XCTAssertEqual(try connection.readResponse().bodyString, "GET /second body=0:")
            XCTAssertEqual(try connection.readResponse().bodyString, "POST /third body=3:abc")
        }
    }

    /// Handlers that never suspend answer inside `dispatch`; thousands pipelined in one write
    /// must still be served by the read loop in order, not by nesting a call per request.
    func testThousandsOfPipelinedImmediateAnswersComeBackInOrder() async throws {
        try await withServer { server in
            let connection = try RawConnection(server)
            let count = 3000
            var requests = ""
            for index in 0..<count - 1 { requests += "GET /p\(index) HTTP/1.1\r\nHost: x\r\n\r\n" }
            requests += "GET /p\(count - 1) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            try connection.write(requests)
            let responses = TestResponse.parseAll(try connection.readUntilClose())
            XCTAssertEqual(responses.count, count)
            XCTAssertEqual(responses.map(\.bodyString), (0..<count).map { "GET /p\($0) body=0:" })
        }
    }

    func testConnectionCloseIsHonoured() async throws {
        try await withServer { server in
            let connection = try RawConnection(server)
            try connection.write("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let responses = TestResponse.parseAll(try connection.readUntilClose())
            XCTAssertEqual(responses.count, 1)
            XCTAssertEqual(responses.first?.headers["Connection"], "close")
        }
    }

    func testHTTP10ClosesUnlessKeepAliveAsked() async throws {
        try await withServer { server in
            let plain = try RawConnection(server)
            try plain.write("GET / HTTP/1.0\r\n\r\n")
            XCTAssertEqual(TestResponse.parseAll(try plain.readUntilClose()).count, 1)

            let kept = try RawConnection(server)
            try kept.write("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            XCTAssertEqual(try kept.readResponse().headers["Connection"], "keep-alive")
            try kept.write("GET /b HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            XCTAssertEqual(try kept.readResponse().bodyString, "GET /b body=0:")
        }
    }

    func testChunkedRequestBody() async throws {
        try await withServer { server in
            let connection = try RawConnection(server)
            try connection.write("POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n")
            XCTAssertEqual(try connection.readResponse().bodyString, "POST /c body=5:abcde")
        }
    }

    func testHeadResponseHasLengthButNoBody() async throws {
        try await withServer { server in
            let connection = try RawConnection(server)
            try connection.write("HEAD /h HTTP/1.1\r\nHost: x\r\n\r\nGET /after HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try connection.readResponse(isHead: true)
            XCTAssertEqual(head.headers["Content-Length"], "\("HEAD /h body=0:".utf8.count)")
            XCTAssertTrue(head.body.isEmpty)
            XCTAssertEqual(try connection.readResponse().bodyString, "GET /after body=0:")
        }
    }

    func testExpectContinueGetsInterimResponse() async throws {
        try await withServer { server in
            let connection = try RawConnection(server)
            try connection.write("POST /e HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
            let interim = try connection.readResponse()
            XCTAssertEqual(interim.status.code, 100)
            try connection.write("data")
            XCTAssertEqual(try connection.readResponse().bodyString, "POST /e body=4:data")
        }
    }

    func testLargeResponseIsWrittenCompletely() async throws {
        try await withServer { server in
            let connection = try RawConnection(server)
            try connection.write("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try connection.readResponse().body.count, 1 << 20)
        }
    }
}
