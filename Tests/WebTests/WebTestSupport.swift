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

/// Builds a fresh app with `configure` for each of `modes` and runs `body` against it through
/// `app.test(mode)`. Both modes by default: routing, middleware, content and errors must not
/// depend on the transport.
func withApp(
    _ modes: [TestingMode] = [.live, .inProcess],
    environment: Environment = .testing,
    configure: (Application) throws -> Void,
    _ body: (TestClient) async throws -> Void
) async throws {
    for mode in modes {
        let app = makeApp(environment: environment)
        try configure(app)
        do {
            try await app.test(mode, body)
        } catch {
            throw ModeFailure(mode: mode, error: error)
        }
    }
}

/// An app that logs only what is critical.
func makeApp(environment: Environment = .testing) -> Application {
    let logger = Logger.quiet("web-test")
    return Application(environment: environment, logger: logger)
}

/// An error thrown in one mode of `withApp`, naming the mode.
struct ModeFailure: Error, CustomStringConvertible {
    let mode: TestingMode
    let error: any Error
    var description: String { "\(mode): \(error)" }
}
