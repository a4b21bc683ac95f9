import HTTP1
import XCTest

/// Chunked request bodies (RFC 9112 §7.1): the strict chunk-size line, and the bounds that
/// keep framing bytes from costing more memory or time than the body they carry.
final class ChunkedBodyTests: XCTestCase {
    private static let chunkedHead = "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"

    private func parse(_ body: String, limits: HTTPServerLimits = .init()) throws(HTTPParseError) -> [UInt8]? {
        var parser = HTTPRequestParser(limits: limits)
        parser.append(contentsOf: Array((Self.chunkedHead + body).utf8))
        return try parser.next()?.body
    }

    private func assertError(
        _ body: String, _ expected: HTTPParseError? = nil, limits: HTTPServerLimits = .init(),
        file: StaticString = #filePath, line: UInt = #line
    ) {
        do {
            let parsed = try parse(body, limits: limits)
            XCTFail("accepted: \(parsed.map { String(decoding: $0, as: UTF8.self) } ?? "nil")", file: file, line: line)
        } catch {
            if let expected {
                XCTAssertEqual(error, expected, file: file, line: line)
            } else if case .badRequest = error {
            } else {
                XCTFail("\(error), expected a 400", file: file, line: line)
            }
        }
    }

    /// After the hex digits only optional whitespace and `;` extensions may follow: a parser
    /// that reads `5 garbage` as 5 disagrees with a proxy that refuses it (smuggling).
    func testChunkSizeFollowedByGarbageIs400() {
        assertError("5 garbage\r\nhello\r\n0\r\n\r\n")
        assertError("5garbage\r\nhello\r\n0\r\n\r\n")
        assertError("5 \t x\r\nhello\r\n0\r\n\r\n")
        assertError("5 6\r\nhello\r\n0\r\n\r\n")
        assertError(" 5\r\nhello\r\n0\r\n\r\n")
    }

    func testWhitespaceAndExtensionsAfterTheSizeAreAccepted() throws {
        for sizeLine in ["5", "5 ", "5\t", "5 \t ", "5;name", "5;name=value", "5 ;name=\"quoted value\"", "5\t; a=1; b"] {
            XCTAssertEqual(try parse("\(sizeLine)\r\nhello\r\n0\r\n\r\n"), Array("hello".utf8), sizeLine.debugDescription)
        }
    }

    func testOverlongChunkExtensionIs400() {
        assertError("1;" + String(repeating: "e", count: 300) + "\r\nx\r\n0\r\n\r\n")
    }

    /// Padded chunk lines around one-byte chunks: the decoded body stays tiny while the raw
    /// bytes pile up. The raw bytes of a body are bounded too (413), not only its decoded size.
    func testPaddedChunkLinesHitTheRawBodyBound() {
        var limits = HTTPServerLimits()
        limits.maxBodyBytes = 100
        limits.maxHeaderBytes = 200
        let padded = String(repeating: "1;" + String(repeating: "p", count: 200) + "\r\nx\r\n", count: 60)
        assertError(padded + "0\r\n\r\n", .contentTooLarge, limits: limits)
    }

    /// The same refusal while the body is still arriving: the bound holds for the bytes
    /// buffered so far, before the final chunk.
    func testRawBodyBoundIsEnforcedBeforeTheBodyEnds() {
        var limits = HTTPServerLimits()
        limits.maxBodyBytes = 100
        limits.maxHeaderBytes = 200
        var parser = HTTPRequestParser(limits: limits)
        parser.append(contentsOf: Array(Self.chunkedHead.utf8))
        XCTAssertNoThrow(try parser.next())
        var refused = false
        for _ in 0..<90 where !refused {  // 90 body bytes: under maxBodyBytes
            parser.append(contentsOf: Array(("1;" + String(repeating: "p", count: 100) + "\r\nx\r\n").utf8))
            do { _ = try parser.next() } catch {
                XCTAssertEqual(error, .contentTooLarge)
                refused = true
            }
        }
        XCTAssertTrue(refused, "~10 KB of framing buffered for a 90-byte body")
    }

    func testBodyNearTheLimitInSmallChunksIsAccepted() throws {
        var limits = HTTPServerLimits()
        limits.maxBodyBytes = 64 * 1024
        let chunk = String(repeating: "z", count: 64)
        let body = String(repeating: "40\r\n\(chunk)\r\n", count: 1024) + "0\r\nTrailer: t\r\n\r\n"
        XCTAssertEqual(try parse(body, limits: limits)?.count, 64 * 1024)
    }

    /// A long trailer line arriving byte by byte is scanned once, not from its start on every
    /// read (which is quadratic: ~1.8 G byte checks for this 60 KB line, seconds of CPU).
    func testLongLineArrivingBytewiseIsNotRescanned() throws {
        var limits = HTTPServerLimits()
        limits.maxHeaderBytes = 64 * 1024
        let trailer = "T: " + String(repeating: "t", count: 60 * 1024) + "\r\n\r\n"
        var parser = HTTPRequestParser(limits: limits)
        parser.append(contentsOf: Array((Self.chunkedHead + "1\r\nx\r\n0\r\n").utf8))
        XCTAssertNil(try parser.next())
        let started = ContinuousClock.now
        var request: HTTPRequest?
        for byte in trailer.utf8 where request == nil {
            parser.append(contentsOf: [byte])
            request = try parser.next()
        }
        let elapsed = ContinuousClock.now - started
        XCTAssertEqual(request?.body, Array("x".utf8))
        XCTAssertLessThan(elapsed, .seconds(1))
    }
}
