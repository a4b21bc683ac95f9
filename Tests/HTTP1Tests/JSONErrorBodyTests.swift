import Foundation
import HTTP1
import WebTesting
import XCTest

/// The one renderer of `{"error":true,"reason":"..."}`: any reason makes valid JSON.
final class JSONErrorBodyTests: XCTestCase {
    private func decodedReason(_ body: [UInt8]) throws -> String? {
        let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
        XCTAssertEqual(object?["error"] as? Bool, true)
        return object?["reason"] as? String
    }

    func testReasonsAreEscaped() throws {
        for reason in ["plain", #"a "quoted" word"#, #"back\slash"#, "line\nbreak\r\ttab", "nul\u{0}bell\u{7}esc\u{1B}", "ünïcødé ✓ /slash", ""] {
            let body = JSONErrorBody.render(reason: reason)
            XCTAssertEqual(try decodedReason(body), reason, String(decoding: body, as: UTF8.self))
        }
        XCTAssertEqual(String(decoding: JSONErrorBody.render(reason: "x"), as: UTF8.self), #"{"error":true,"reason":"x"}"#)
    }

    /// The server's own refusals use it too, with the usual `Date` and `Server` headers.
    func testServerRefusalsCarryTheSameBody() async throws {
        var limits = HTTPServerLimits()
        limits.maxConnections = 1
        try await withServer(limits: limits, loops: 1) { server in
            let garbage = try RawConnection(server)
            try garbage.write("\u{01}\r\n\r\n")
            let badRequest = try XCTUnwrap(TestResponse.parseAll(try garbage.readUntilClose()).first)
            XCTAssertEqual(try decodedReason(badRequest.body), "Control character in request head.")
            XCTAssertEqual(badRequest.headers["Content-Type"], "application/json; charset=utf-8")

            let held = try RawConnection(server)
            try held.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try held.readResponse()
            let refused = try RawConnection(server)
            let busy = try XCTUnwrap(TestResponse.parseAll(try refused.readUntilClose()).first)
            XCTAssertEqual(busy.status.code, 503)
            XCTAssertEqual(try decodedReason(busy.body), "too many open connections")
            XCTAssertNotNil(busy.headers["Date"])
            XCTAssertEqual(busy.headers["Server"], "TIL")
        }
    }
}
