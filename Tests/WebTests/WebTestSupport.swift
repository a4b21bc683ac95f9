import Foundation
import Logging
import Web
import WebTesting
import XCTest

struct Greeting: Content, Equatable {
    var name: String
    var count: Int
}

struct User: Authenticatable {
    let name: String
}

/// Logs in `User(name: <X-User>)` when the header is present.
struct HeaderAuthenticator: Middleware {
    func respond(to request: Request, chainingTo next: any Responder) async throws -> Response {
        var request = request
        if let name = request.headers["X-User"] { request.auth.login(User(name: name)) }
        return try await next.respond(to: request)
    }
}

/// Appends its tag to `X-Trace` on the way out, so tests can see the middleware order.
struct TraceMiddleware: Middleware {
    let tag: String
    func respond(to request: Request, chainingTo next: any Responder) async throws -> Response {
        var response = try await next.respond(to: request)
        let trace = response.headers["X-Trace"].map { $0 + "," + tag } ?? tag
        response.headers.replaceOrAdd(name: "X-Trace", value: trace)
        return response
    }
}

struct Boom: Error {}

/// Builds an app with `configure`, starts it on a free port, runs `body`, shuts it down.
func withApp(
    environment: Environment = .testing,
    configure: (Application) throws -> Void,
    _ body: (TestClient) async throws -> Void
) async throws {
    var logger = Logger(label: "web-test")
    logger.logLevel = .critical
    let app = Application(environment: environment, logger: logger)
    try configure(app)
    try app.startForTesting()
    do {
        try await body(app.client)
    } catch {
        await app.shutdown()
        throw error
    }
    await app.shutdown()
}
