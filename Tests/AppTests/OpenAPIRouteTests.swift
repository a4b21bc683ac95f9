import AppTesting
import Foundation
import Web
import WebTesting
import XCTest
@testable import App

/// The document cannot drift from the code: its operations are exactly the live route table,
/// and each operation's `security` is exactly what its route's guard enforces, both ways.
final class OpenAPIRouteTests: XCTestCase {
    func testDocumentedOperationsAreExactlyTheLiveRoutes() async throws {
        try await withTestApp { app in
            let documented = try await OpenAPIContract.served(by: app).operationNames()
            let live = Set(app.app.routes.map { "\($0.method.rawValue) \($0.path.string)" })
            XCTAssertEqual(live.subtracting(documented).sorted(), [], "routes missing from the OpenAPI document")
            XCTAssertEqual(documented.subtracting(live).sorted(), [], "documented operations with no route")
            XCTAssertEqual(live.count, app.app.routes.count, "a route registered twice")
        }
    }

    /// Each route's guard (`Route.access`: public, any bearer token, or a token with a scope)
    /// is the operation's documented `security`, and the reverse. HTTP Basic is the one scheme
    /// no guard enforces: the login checks it itself, so its route is unguarded and the test
    /// checks instead that the operation challenges for Basic credentials.
    func testEachOperationsSecurityIsItsRoutesGuard() async throws {
        try await withTestApp { app in
            let contract = try await OpenAPIContract.served(by: app)
            let operations = Dictionary(uniqueKeysWithValues: try contract.documentedOperations().map { ("\($0.method.rawValue) \($0.routePath)", $0) })
            var guarded = 0
            for route in app.app.routes {
                guard let operation = operations[route.description] else { continue }  // the test above fails
                if case .authenticated("basic", _) = operation.access {
                    XCTAssertEqual(route.access, .public, "\(operation): Basic is checked by its handler, behind no guard")
                    let challenge = try await app.client.send(operation.method, try OperationFixture.make(on: app).target(of: operation))
                    XCTAssertEqual(challenge.status.code, 401, "\(operation) without credentials")
                    XCTAssertEqual(challenge.headers["WWW-Authenticate"]?.hasPrefix("Basic "), true, "\(operation): Basic challenge")
                    continue
                }
                XCTAssertEqual(operation.access, route.access, "\(operation): the document says \(operation.access), the route's guard \(route.access)")
                if route.access != .public { guarded += 1 }
            }
            XCTAssertGreaterThan(guarded, 0, "no guarded route found: Route.access reads no guard")
        }
    }
}
