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
}
