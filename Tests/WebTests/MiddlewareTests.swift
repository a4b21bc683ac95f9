import Web
import WebTesting
import XCTest

final class MiddlewareTests: XCTestCase {
    func testGroupMiddlewareRunsInOrderAndOnlyOnItsRoutes() async throws {
        try await withApp(configure: { app in
            app.middleware.append(TraceMiddleware(tag: "global"))
            app.middleware.insert(TraceMiddleware(tag: "outermost"), at: 0)
            let group = app.grouped(TraceMiddleware(tag: "outer")).grouped(TraceMiddleware(tag: "inner"))
            group.get("inside") { _ in "in" }
            app.get("outside") { _ in "out" }
        }) { client in
            let inside = try await client.send(.get, "/inside")
            let outside = try await client.send(.get, "/outside")
            let missing = try await client.send(.get, "/missing")
            XCTAssertEqual(inside.headers["X-Trace"], "inner,outer,global,outermost")
            XCTAssertEqual(outside.headers["X-Trace"], "global,outermost")
            // A 404 passes the global chain too; it is an error until ErrorMiddleware turns it
            // into a response, so only middleware outside ErrorMiddleware sees a response.
            XCTAssertEqual(missing.status.code, 404)
            XCTAssertEqual(missing.headers["X-Trace"], "outermost")
        }
    }

    func testAuthenticatorAndGuard() async throws {
        try await withApp(configure: { app in
            let guarded = app.grouped(HeaderAuthenticator(), User.guardMiddleware(challenge: "Bearer"))
            guarded.get("me") { req in try req.auth.require(User.self).name }
        }) { client in
            let anonymous = try await client.send(.get, "/me")
            XCTAssertEqual(anonymous.status.code, 401)
            XCTAssertEqual(anonymous.headers["WWW-Authenticate"], "Bearer")
            let known = try await client.send(.get, "/me", headers: ["X-User": "ada"])
            XCTAssertEqual(known.bodyString, "ada")
        }
    }

    func testRequestIDIsEchoedOrGenerated() async throws {
        try await withApp(configure: { app in app.get("x") { req in req.id } }) { client in
            let echoed = try await client.send(.get, "/x", headers: ["X-Request-ID": "abc-123"])
            XCTAssertEqual(echoed.headers["X-Request-ID"], "abc-123")
            XCTAssertEqual(echoed.bodyString, "abc-123")
            let generated = try await client.send(.get, "/x", headers: ["X-Request-ID": "bad id!"])
            XCTAssertNotEqual(generated.headers["X-Request-ID"], "bad id!")
            XCTAssertEqual(generated.headers["X-Request-ID"], generated.bodyString)
        }
    }

    func testBasicAndBearerHeaderParsing() {
        let basic: HTTPHeaders = ["Authorization": "Basic YWRtaW46cGFzczp3b3Jk"]
        XCTAssertEqual(basic.basicAuthorization, BasicAuthorization(username: "admin", password: "pass:word"))
        XCTAssertNil(basic.bearerAuthorization)
        let bearer: HTTPHeaders = ["Authorization": "bearer abc.def"]
        XCTAssertEqual(bearer.bearerAuthorization, BearerAuthorization(token: "abc.def"))
        XCTAssertNil(bearer.basicAuthorization)
        XCTAssertNil(HTTPHeaders(dictionaryLiteral: ("Authorization", "Basic !!!")).basicAuthorization)
        XCTAssertNil(HTTPHeaders(dictionaryLiteral: ("Authorization", "Basic bm9jb2xvbg==")).basicAuthorization)
        XCTAssertNil(HTTPHeaders(dictionaryLiteral: ("Authorization", "Bearer")).bearerAuthorization)
    }
}
