import HTTP1
import Logging
import WebTesting
import XCTest

/// Answers with what it received, so wire tests can see how a request was parsed.
/// `/slow?ms=N` sleeps first (recording "started /slow?ms=N", then "finished ..." or
/// "cancelled ..." in `events`); `/big` answers 1 MiB (recording "big").
struct EchoResponder: HTTPResponder {
    var events = EventLog()

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        let target = request.head.target
        if target.hasPrefix("/slow") {
            let ms = Int(target.split(separator: "=").last ?? "") ?? 200
            events.record("started \(target)")
            do {
                try await Task.sleep(for: .milliseconds(ms))
                events.record("finished \(target)")
            } catch {
                events.record("cancelled \(target)")
            }
        }
        if target == "/big" {
            events.record("big")
            return HTTPResponse(status: .ok, body: [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20))
        }
        let summary = "\(request.head.method.rawValue) \(target) body=\(request.body.count):" + String(decoding: request.body, as: UTF8.self)
        return HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain"], body: Array(summary.utf8))
    }
}

/// Starts a server on a free loopback port for one test and stops it afterwards.
///
/// The server-level twin of `Application.test(.live)`: these tests sit below the framework
/// (a bare `HTTPResponder`, exact wire bytes through `RawConnection`, server-only state such as
/// `openConnections`), so wrapping them in an `Application` would test routes they don't have.
func withServer(
    limits: HTTPServerLimits = .init(), loops: Int = 2, responder: EchoResponder = EchoResponder(),
    logger: Logger? = nil, tls: TLSConfiguration? = nil, _ body: (HTTPServer) async throws -> Void
) async throws {
    let logger = logger ?? .quiet("test", level: .warning)
    let server = HTTPServer(
        configuration: .init(host: "127.0.0.1", port: 0, limits: limits, loopCount: loops, tls: tls),
        responder: responder, logger: logger)
    try server.start()
    do {
        try await body(server)
    } catch {
        await server.shutdown(gracePeriod: .seconds(1))
        throw error
    }
    await server.shutdown(gracePeriod: .seconds(1))
    // Every connection closed, and the server-wide count of unsent bytes balanced.
    XCTAssertEqual(server.openConnections, 0)
    XCTAssertEqual(server.pendingOutputBytes, 0)
}

extension RawConnection {
    convenience init(_ server: HTTPServer, receiveBufferSize: Int? = nil) throws {
        try self.init(port: server.port, receiveBufferSize: receiveBufferSize)
    }
}
