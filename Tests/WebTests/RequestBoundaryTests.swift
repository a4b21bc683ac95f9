import Web
import WebTesting
import XCTest

/// What the framework fills in or refuses before a handler runs: the client's address,
/// ambiguous credentials, NUL bytes.
final class RequestBoundaryTests: XCTestCase {
    func testHandlerSeesTheClientAddress() async throws {
        try await withApp(configure: { app in
            app.get("whoami") { req in req.remoteAddress ?? "unknown" }
        }) { client in
            let first = try await client.send(.get, "/whoami")
            let second = try await client.send(.get, "/whoami")
            XCTAssertEqual(first.bodyString, "127.0.0.1")
            XCTAssertEqual(second.bodyString, "127.0.0.1")
        }
    }

    func testSeveralAuthorizationHeadersAre400BeforeRouting() async throws {
        try await withApp(configure: { app in
            app.get("me") { req in req.headers["Authorization"] ?? "none" }
        }) { client in
            let twice = HTTPHeaders([("Authorization", "Bearer first"), ("Authorization", "Bearer second")])
            let routed = try await client.send(.get, "/me", headers: twice)
            XCTAssertEqual(routed.status.code, 400)
            XCTAssertEqual(routed.headers["Content-Type"], "application/json; charset=utf-8")
            XCTAssertEqual(try routed.decode(ErrorReply.self), ErrorReply(error: true, reason: "Send at most one Authorization header."))
            // Refused before routing: an unknown path is a 400 too, not a 404.
            let unrouted = try await client.send(.get, "/nowhere", headers: twice)
            XCTAssertEqual(unrouted.status.code, 400)
            let once = try await client.send(.get, "/me", headers: ["Authorization": "Bearer only"])
            XCTAssertEqual(once.bodyString, "Bearer only")
        }
    }
}
