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

    func testAuthenticatorLogsInAndRequireRefusesTheAnonymous() async throws {
        try await withApp(configure: { app in
            app.grouped(HeaderAuthenticator()).get("me") { req in try req.auth.require(User.self).name }
        }) { client in
            let anonymous = try await client.send(.get, "/me")
            XCTAssertEqual(anonymous.status.code, 401)
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
        XCTAssertNil(basic.bearerCredential)
        let bearer: HTTPHeaders = ["Authorization": "bearer abc.def"]
        XCTAssertEqual(bearer.bearerCredential.flatMap(BearerToken.init), BearerToken("abc.def"))
        XCTAssertNil(bearer.basicAuthorization)
        XCTAssertNil(HTTPHeaders(dictionaryLiteral: ("Authorization", "Basic !!!")).basicAuthorization)
        XCTAssertNil(HTTPHeaders(dictionaryLiteral: ("Authorization", "Basic bm9jb2xvbg==")).basicAuthorization)
        // Sent but malformed: the credential is there (so it earns `invalid_token`), the token is not.
        XCTAssertEqual(HTTPHeaders(dictionaryLiteral: ("Authorization", "Bearer")).bearerCredential, "")
        XCTAssertNil(BearerToken(""))
    }

    func testBearerTokensAreAtMost512Bytes() {
        XCTAssertEqual(BearerToken(String(repeating: "a", count: 512))?.value.utf8.count, 512)
        XCTAssertNil(BearerToken(String(repeating: "a", count: 513)))
        XCTAssertNil(BearerToken(String(repeating: "é", count: 257)), "counted in UTF-8 bytes, not characters")
    }
}
