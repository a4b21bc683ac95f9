import Foundation
import Web
import WebTesting
import XCTest

/// What the framework fills in or refuses before a handler runs: the client's address,
/// ambiguous credentials, NUL bytes.
final class RequestBoundaryTests: XCTestCase {
    func testHandlerSeesTheClientAddress() async throws {
        let configure: (Application) -> Void = { app in
            app.get("whoami") { req in req.remoteAddress ?? "unknown" }
        }
        try await withApp([.live], configure: configure) { client in
            let first = try await client.send(.get, "/whoami")
            let second = try await client.send(.get, "/whoami")
            XCTAssertEqual(first.bodyString, "127.0.0.1")
            XCTAssertEqual(second.bodyString, "127.0.0.1")
        }
        try await withApp([.inProcess], configure: configure) { client in
            let response = try await client.send(.get, "/whoami")
            XCTAssertEqual(response.bodyString, "unknown")
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

    func testPercentEncodedNULInTheQueryIs400() async throws {
        try await withApp(configure: { app in
            app.get("search") { req in req.query["term"] ?? "none" }
        }) { client in
            let value = try await client.send(.get, "/search?term=a%00b")
            XCTAssertEqual(value.status.code, 400)
            XCTAssertEqual(try value.decode(ErrorReply.self).reason, "Query parameter 'term' must not contain NUL.")
            let name = try await client.send(.get, "/search?te%00rm=a")
            XCTAssertEqual(try name.decode(ErrorReply.self).reason, "A query parameter must not contain NUL.")
            let escaped = try await client.send(.get, "/search?term=a%2500b")
            XCTAssertEqual(escaped.bodyString, "a%00b")
        }
    }

    func testPercentEncodedNULInAPathParameterIs400() async throws {
        try await withApp(configure: { app in
            app.get("echo", ":word") { req in try req.parameters.require("word") }
        }) { client in
            for path in ["/echo/%00", "/echo/a%00b"] {
                let response = try await client.send(.get, path)
                XCTAssertEqual(response.status.code, 400, path)
                XCTAssertEqual(try response.decode(ErrorReply.self).reason, "Path parameter 'word' must not contain NUL.")
            }
            let escaped = try await client.send(.get, "/echo/%2500")
            XCTAssertEqual(escaped.bodyString, "%00")
        }
    }

    func testBasicCredentialsWithNULAre400NotATruncatedLogin() async throws {
        try await withApp(configure: { app in
            app.get("login") { req in req.headers.basicAuthorization?.username ?? "anonymous" }
        }) { client in
            for credentials in ["admin\u{0}evil:password", "admin:pass\u{0}word"] {
                let encoded = Data(credentials.utf8).base64EncodedString()
                let response = try await client.send(.get, "/login", headers: ["Authorization": "Basic \(encoded)"])
                XCTAssertEqual(response.status.code, 400)
                XCTAssertEqual(try response.decode(ErrorReply.self).reason, "HTTP Basic credentials must not contain NUL.")
                XCTAssertNil(HTTPHeaders(dictionaryLiteral: ("Authorization", "Basic \(encoded)")).basicAuthorization)
            }
            let plain = Data("admin:password".utf8).base64EncodedString()
            let accepted = try await client.send(.get, "/login", headers: ["Authorization": "Basic \(plain)"])
            XCTAssertEqual(accepted.bodyString, "admin")
        }
    }

    func testJSONStringsWithEscapedNULAre400() async throws {
        try await withApp(configure: { app in
            app.post("greet") { req in try req.content.decode(Greeting.self) }
        }) { client in
            let json: HTTPHeaders = ["Content-Type": "application/json"]
            // An escaped NUL in a value or a key, and after an escaped backslash (`\\` then `\u0000`).
            for body in [#"{"name":"a\u0000b","count":1}"#, #"{"na\u0000me":"a","count":1}"#, #"{"name":"\\\u0000","count":1}"#] {
                let response = try await client.send(.post, "/greet", headers: json, body: Array(body.utf8))
                XCTAssertEqual(response.status.code, 400, body)
                XCTAssertEqual(try response.decode(ErrorReply.self).reason, #"JSON strings must not contain NUL (\u0000)."#, body)
            }
            // An escaped backslash followed by the text `u0000` holds no NUL.
            let text = try await client.send(.post, "/greet", headers: json, body: Array(#"{"name":"\\u0000","count":1}"#.utf8))
            XCTAssertEqual(text.status.code, 200)
            XCTAssertEqual(try text.decode(Greeting.self).name, #"\u0000"#)
        }
    }
}
