import Web
import XCTest

/// `Route.access` reads the guard a route really has, through every group: what the contract
/// tests compare with the OpenAPI document's `security`.
final class RouteAccessTests: XCTestCase {
    struct Guard: AccessGuard {
        let access: RouteAccess

        func respond(to request: Request, chainingTo next: any Responder) async throws -> Response {
            try await next.respond(to: request)
        }
    }

    struct PassThrough: Middleware {
        func respond(to request: Request, chainingTo next: any Responder) async throws -> Response {
            try await next.respond(to: request)
        }
    }

    func testARouteReportsTheInnermostGuardInFrontOfIt() {
        let app = Application(environment: .testing)
        app.get("open") { _ in "" }
        app.grouped(PassThrough()).get("passed") { _ in "" }
        let bearer = app.grouped("api").grouped(Guard(access: .authenticated(scheme: "bearer", scopes: [])))
        bearer.get("me") { _ in "" }
        bearer.grouped(PassThrough(), Guard(access: .authenticated(scheme: "bearer", scopes: ["account"]))).delete("me") { _ in "" }
        XCTAssertEqual(app.routes.map(\.access), [
            .public, .public, .authenticated(scheme: "bearer", scopes: []), .authenticated(scheme: "bearer", scopes: ["account"]),
        ])
        XCTAssertEqual(app.routes.map(\.access.description), ["public", "public", "bearer", "bearer account"])
    }
}
