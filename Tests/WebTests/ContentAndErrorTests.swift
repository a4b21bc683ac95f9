import Logging
import Web
import WebTesting
import XCTest

final class ContentAndErrorTests: XCTestCase {
    private func configure(_ app: Application) {
        app.post("greet") { req in
            var greeting = try req.content.decode(Greeting.self)
            greeting.count += 1
            return greeting
        }
        app.get("teapot") { _ -> String in throw Abort(.init(code: 418, reasonPhrase: "I'm a teapot"), reason: "short and stout") }
        app.get("boom") { _ -> String in throw Boom() }
        app.post("created") { _ in ContentResponse(Greeting(name: "n", count: 1), status: .created) }
        app.delete("gone") { _ in HTTPStatus.noContent }
    }

    func testJSONRoundTrip() async throws {
        try await withApp(configure: configure) { client in
            let response = try await client.send(.post, "/greet", json: Greeting(name: "Ada", count: 1))
            XCTAssertEqual(response.status.code, 200)
            XCTAssertEqual(response.headers["Content-Type"], "application/json; charset=utf-8")
            XCTAssertEqual(try response.decode(Greeting.self), Greeting(name: "Ada", count: 2))
        }
    }

    func testNonJSONIs415() async throws {
        try await withApp(configure: configure) { client in
            let response = try await client.send(.post, "/greet", headers: ["Content-Type": "text/plain"], body: Array("hi".utf8))
            XCTAssertEqual(response.status.code, 415)
            let missing = try await client.send(.post, "/greet", body: Array("{}".utf8))
            XCTAssertEqual(missing.status.code, 415)
        }
    }

    func testBadJSONIs400NamingTheProblem() async throws {
        try await withApp(configure: configure) { client in
            let json: HTTPHeaders = ["Content-Type": "application/json"]
            let missingKey = try await client.send(.post, "/greet", headers: json, body: Array(#"{"name":"x"}"#.utf8))
            XCTAssertEqual(missingKey.status.code, 400)
            XCTAssertEqual(try missingKey.decode(ErrorReply.self).reason, "Value required for key 'count'.")
            let wrongType = try await client.send(.post, "/greet", headers: json, body: Array(#"{"name":"x","count":"two"}"#.utf8))
            XCTAssertEqual(try wrongType.decode(ErrorReply.self).reason, "Value of type 'Int' required for key 'count'.")
            let broken = try await client.send(.post, "/greet", headers: json, body: Array(#"{"name":"#.utf8))
            XCTAssertEqual(broken.status.code, 400)
            XCTAssertEqual(try broken.decode(ErrorReply.self).reason, "The request body is not valid JSON.")
            let empty = try await client.send(.post, "/greet", headers: json)
            XCTAssertEqual(empty.status.code, 400)
        }
    }

    func testAbortKeepsStatusAndReason() async throws {
        try await withApp(configure: configure) { client in
            let response = try await client.send(.get, "/teapot")
            XCTAssertEqual(response.status.code, 418)
            XCTAssertEqual(try response.decode(ErrorReply.self), ErrorReply(error: true, reason: "short and stout"))
        }
    }

    func testUnknownErrorIs500WithoutInternalsOutsideDevelopment() async throws {
        try await withApp(environment: .production, configure: configure) { client in
            let response = try await client.send(.get, "/boom")
            XCTAssertEqual(response.status.code, 500)
            XCTAssertEqual(try response.decode(ErrorReply.self).reason, "Something went wrong.")
            XCTAssertFalse(response.bodyString.contains("Boom"))
        }
    }

    /// The error line and the access line, no more: one `error` line per unhandled error,
    /// tagged with the request id, and none for an `Abort` (an answer someone chose, whose
    /// status the access line already records).
    func testUnknownErrorIsLoggedOnceAndAbortNotAtAll() async throws {
        for mode in [TestingMode.live, .inProcess] {
            let capture = LogCapture()
            let app = Application(environment: .production, logger: capture.logger())
            configure(app)
            app.get("unavailable") { _ -> String in throw Abort(.serviceUnavailable, reason: "busy") }
            try await app.test(mode) { client in
                let boom = try await client.send(.get, "/boom")
                let unavailable = try await client.send(.get, "/unavailable")
                XCTAssertEqual(unavailable.status.code, 503)
                let boomID = try XCTUnwrap(boom.headers["X-Request-ID"])
                let errors = capture.lines.filter { $0.level >= .warning }
                XCTAssertEqual(errors.count, 1, "\(mode): " + errors.map(\.fullText).joined(separator: "\n"))
                XCTAssertEqual(errors.first?.metadata["request-id"], boomID)
                XCTAssertTrue(errors.first?.fullText.contains("Boom") ?? false)
            }
        }
    }

    func testStatusesAndCustomStatusContent() async throws {
        try await withApp(configure: configure) { client in
            let created = try await client.send(.post, "/created")
            XCTAssertEqual(created.status.code, 201)
            XCTAssertEqual(try created.decode(Greeting.self), Greeting(name: "n", count: 1))
            let gone = try await client.send(.delete, "/gone")
            XCTAssertEqual(gone.status.code, 204)
            XCTAssertNil(gone.headers["Content-Length"])
        }
    }
}
