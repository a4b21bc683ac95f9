import Web
import WebTesting
import XCTest

/// `app.test(mode) { client in }`: scoped lifetimes, credentials, and the two transports
/// answering alike.
final class TestHarnessTests: XCTestCase {
    func testShutdownHooksRunAfterTheBodyAndWhenItThrows() async throws {
        for mode in [TestingMode.live, .inProcess] {
            let events = EventLog()
            let app = makeApp()
            app.get("ping") { _ in "pong" }
            app.onShutdown { events.record("shutdown") }
            let body = try await app.test(mode) { client in try await client.send(.get, "/ping").bodyString }
            XCTAssertEqual(body, "pong")
            XCTAssertEqual(events.all, ["shutdown"], "\(mode)")
            XCTAssertEqual(app.boundPort, 0, "the live server is stopped")

            let failing = makeApp()
            failing.onShutdown { events.record("shutdown after throw") }
            do {
                try await failing.test(mode) { _ in throw Boom() }
                XCTFail("the body's error must propagate")
            } catch is Boom {}
            XCTAssertEqual(events.all, ["shutdown", "shutdown after throw"], "\(mode)")
        }
    }

    func testAuthSetsTheAuthorizationHeader() async throws {
        try await withApp(configure: { app in
            app.get("auth") { req in req.headers.values(for: "Authorization").joined(separator: "|") }
        }) { client in
            let basic = try await client.send(.get, "/auth", auth: .basic("ada", "pw"))
            XCTAssertEqual(basic.bodyString, "Basic YWRhOnB3")
            let bearer = try await client.send(.get, "/auth", headers: ["Authorization": "Bearer old"], auth: .bearer("new"))
            XCTAssertEqual(bearer.bodyString, "Bearer new")
            let json = try await client.send(.get, "/auth", json: Greeting(name: "a", count: 1), auth: .bearer("t"))
            XCTAssertEqual(json.bodyString, "Bearer t")
        }
    }

    func testBothModesAnswerWithTheSameStatusHeadersAndBody() async throws {
        var responses: [TestResponse] = []
        for mode in [TestingMode.live, .inProcess] {
            let app = makeApp()
            app.middleware.append(TraceMiddleware(tag: "global"))
            app.post("greet") { req in try req.content.decode(Greeting.self) }
            let response = try await app.test(mode) { client in
                try await client.send(.post, "/greet", headers: ["X-Request-ID": "same"], json: Greeting(name: "Ada", count: 1))
            }
            responses.append(response)
        }
        let (live, inProcess) = (responses[0], responses[1])
        XCTAssertEqual(live.status, inProcess.status)
        XCTAssertEqual(live.body, inProcess.body)
        XCTAssertEqual(live.headers.fields.map(\.name), inProcess.headers.fields.map(\.name))
        for name in ["Content-Type", "Content-Length", "Connection", "Server", "X-Request-ID", "X-Trace"] {
            XCTAssertEqual(live.headers[name], inProcess.headers[name], name)
        }
        XCTAssertNotNil(inProcess.headers["Date"])
    }
}
