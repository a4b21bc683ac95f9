import HTTP1
import XCTest

/// The request parser as a pure value: framing, limits, malformed input, pipelining.
final class ParserTests: XCTestCase {
    private func parse(_ text: String, limits: HTTPServerLimits = .init()) throws(HTTPParseError) -> [HTTPRequest] {
        var parser = HTTPRequestParser(limits: limits)
        parser.append(contentsOf: Array(text.utf8))
        var requests: [HTTPRequest] = []
        while let request = try parser.next() { requests.append(request) }
        return requests
    }

    private func assertError(
        _ text: String, _ expected: HTTPParseError, limits: HTTPServerLimits = .init(),
        file: StaticString = #filePath, line: UInt = #line
    ) {
        do {
            _ = try parse(text, limits: limits)
            XCTFail("no error for \(text.debugDescription)", file: file, line: line)
        } catch {
            XCTAssertEqual(error, expected, file: file, line: line)
        }
    }

    private func assertBadRequest(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        do {
            _ = try parse(text)
            XCTFail("no error for \(text.debugDescription)", file: file, line: line)
        } catch {
            guard case .badRequest = error else { return XCTFail("\(error) for \(text.debugDescription)", file: file, line: line) }
        }
    }

    func testSimpleGet() throws {
        let requests = try parse("GET /api/acronyms?term=x HTTP/1.1\r\nHost: a\r\nX-Two:  spaced value \t\r\n\r\n")
        XCTAssertEqual(requests.count, 1)
        let head = requests[0].head
        XCTAssertEqual(head.method, .get)
        XCTAssertEqual(head.target, "/api/acronyms?term=x")
        XCTAssertEqual(head.version, .http1_1)
        XCTAssertEqual(head.headers["host"], "a")
        XCTAssertEqual(head.headers["X-Two"], "spaced value")
        XCTAssertTrue(requests[0].body.isEmpty)
    }

    func testBytewiseFeedingGivesTheSameRequests() throws {
        let text = "POST /a HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello"
            + "PUT /b HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2;ext=1\r\nab\r\n1\r\nc\r\n0\r\nTrailer: x\r\n\r\n"
            + "GET /c HTTP/1.1\r\nHost: a\r\n\r\n"
        var parser = HTTPRequestParser()
        var requests: [HTTPRequest] = []
        for byte in text.utf8 {
            parser.append(contentsOf: [byte])
            while let request = try parser.next() { requests.append(request) }
        }
        XCTAssertEqual(requests.map(\.head.target), ["/a", "/b", "/c"])
        XCTAssertEqual(requests.map { String(decoding: $0.body, as: UTF8.self) }, ["hello", "abc", ""])
        XCTAssertFalse(parser.hasPartialRequest)
    }

    func testPipelinedRequestsComeOutOneByOne() throws {
        let requests = try parse(String(repeating: "GET /x HTTP/1.1\r\nHost: a\r\n\r\n", count: 3))
        XCTAssertEqual(requests.count, 3)
    }

    func testLeadingEmptyLinesAreIgnoredButCapped() throws {
        XCTAssertEqual(try parse("\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n").count, 1)
        assertBadRequest(String(repeating: "\r\n", count: 9) + "GET / HTTP/1.1\r\nHost: a\r\n\r\n")
    }

    func testMalformedHeads() {
        assertBadRequest("GET / HTTP/1.1\nHost: a\n\n")             // bare LF
        assertBadRequest("GET / HTTP/1.1\r\nHost: a\rb\r\n\r\n")     // bare CR
        assertBadRequest("GET / HTTP/1.1\r\nHost: a\u{0}\r\n\r\n")   // NUL
        assertBadRequest("GET  / HTTP/1.1\r\nHost: a\r\n\r\n")       // empty target
        assertBadRequest("GET / HTTP/1.1 \r\nHost: a\r\n\r\n")
        assertBadRequest("G(T / HTTP/1.1\r\nHost: a\r\n\r\n")        // method not a token
        assertBadRequest("GET nopath HTTP/1.1\r\nHost: a\r\n\r\n")
        assertBadRequest("GET / HTTQ/1.1\r\nHost: a\r\n\r\n")
        assertBadRequest("GET / HTTP/1.1\r\nHost : a\r\n\r\n")       // space before colon
        assertBadRequest("GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n")
        assertBadRequest("GET / HTTP/1.1\r\nNoColon\r\n\r\n")
        assertBadRequest("GET / HTTP/1.1\r\n\r\n")                   // no Host in 1.1
        assertBadRequest("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")
        assertError("GET / HTTP/2.0\r\nHost: a\r\n\r\n", .versionNotSupported)
    }

    func testHTTP10WithoutHostIsFine() throws {
        XCTAssertEqual(try parse("GET / HTTP/1.0\r\n\r\n").first?.head.version, .http1_0)
        XCTAssertEqual(try parse("OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n").first?.head.target, "*")
    }

    func testSmugglingDefences() {
        assertBadRequest("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n")
        assertBadRequest("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab")
        assertBadRequest("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1, 2\r\n\r\nab")
        assertBadRequest("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n")
        assertBadRequest("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1a\r\n\r\n")
        assertBadRequest("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: \r\n\r\n")
        assertBadRequest("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n")
        assertBadRequest("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n")
        assertBadRequest("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, chunked\r\n\r\n")
        assertBadRequest("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: identity\r\n\r\n")
        assertBadRequest("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n")
    }

    func testIdenticalContentLengthsAreAccepted() throws {
        let request = try parse("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nContent-Length: 2, 2\r\n\r\nab").first
        XCTAssertEqual(request?.body, Array("ab".utf8))
    }

    func testChunkedEdgeCases() throws {
        let body = try parse("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\n\r\nA\r\n0123456789\r\n0\r\n\r\n").first?.body
        XCTAssertEqual(body.map { String(decoding: $0, as: UTF8.self) }, "0123456789")
        XCTAssertEqual(try parse("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n").first?.body, [])
        assertBadRequest("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nZ\r\nabc\r\n0\r\n\r\n")
        assertBadRequest("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n\r\nabc\r\n0\r\n\r\n")
        assertBadRequest("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n0\r\n\r\n")
        assertBadRequest("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFF\r\n")
        assertBadRequest("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\nabc\r\n0\r\n\r\n")
    }

    func testRequestLineLimit() throws {
        var limits = HTTPServerLimits()
        limits.maxRequestLineBytes = 32
        let atLimit = "GET /" + String(repeating: "a", count: 32 - 14) + " HTTP/1.1"
        XCTAssertEqual(atLimit.utf8.count, 32)
        XCTAssertEqual(try parse(atLimit + "\r\nHost: a\r\n\r\n", limits: limits).count, 1)
        assertError("GET /" + String(repeating: "a", count: 32 - 13) + " HTTP/1.1\r\nHost: a\r\n\r\n", .uriTooLong, limits: limits)
        // Refused before the line even ends.
        var parser = HTTPRequestParser(limits: limits)
        parser.append(contentsOf: Array(("GET /" + String(repeating: "a", count: 40)).utf8))
        XCTAssertThrowsError(try parser.next())
    }

    func testHeaderLimits() throws {
        var limits = HTTPServerLimits()
        limits.maxHeaderCount = 3
        XCTAssertEqual(try parse("GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\n\r\n", limits: limits).count, 1)
        assertError("GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n", .headerFieldsTooLarge, limits: limits)
        limits = HTTPServerLimits()
        limits.maxHeaderBytes = 64
        XCTAssertEqual(try parse("GET / HTTP/1.1\r\nHost: a\r\nX: \(String(repeating: "v", count: 40))\r\n\r\n", limits: limits).count, 1)
        assertError("GET / HTTP/1.1\r\nHost: a\r\nX: \(String(repeating: "v", count: 80))\r\n\r\n", .headerFieldsTooLarge, limits: limits)
    }

    func testBodyLimits() throws {
        var limits = HTTPServerLimits()
        limits.maxBodyBytes = 4
        XCTAssertEqual(try parse("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nabcd", limits: limits).count, 1)
        // Refused from the head alone, before any body byte.
        assertError("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\n", .contentTooLarge, limits: limits)
        assertError("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\n", .contentTooLarge, limits: limits)
    }

    func testExpectContinueSignalIsGivenOnce() throws {
        var parser = HTTPRequestParser()
        parser.append(contentsOf: Array("POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n".utf8))
        XCTAssertNil(try parser.next())
        XCTAssertTrue(parser.takeContinueSignal())
        XCTAssertFalse(parser.takeContinueSignal())
        XCTAssertTrue(parser.hasPartialRequest)
        parser.append(contentsOf: Array("ok".utf8))
        XCTAssertEqual(try parser.next()?.body, Array("ok".utf8))
        XCTAssertFalse(parser.hasPartialRequest)
    }

    func testErrorPoisonsTheParser() {
        var parser = HTTPRequestParser()
        parser.append(contentsOf: Array("BAD\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
        XCTAssertThrowsError(try parser.next())
        XCTAssertThrowsError(try parser.next())
    }

    func testKeepAliveSemantics() throws {
        func head(_ text: String) throws -> HTTPRequestHead { try parse(text)[0].head }
        XCTAssertTrue(try head("GET / HTTP/1.1\r\nHost: a\r\n\r\n").keepAlive)
        XCTAssertFalse(try head("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n").keepAlive)
        XCTAssertFalse(try head("GET / HTTP/1.1\r\nHost: a\r\nConnection: Upgrade, Close\r\n\r\n").keepAlive)
        XCTAssertFalse(try head("GET / HTTP/1.0\r\n\r\n").keepAlive)
        XCTAssertTrue(try head("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n").keepAlive)
    }
}
