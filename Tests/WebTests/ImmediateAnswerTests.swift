import Web
import WebTesting
import XCTest

/// Synchronous handlers behind synchronous middleware are answered without a task
/// (`HTTPAnswer.now`); anything that may suspend is not. Both give the same responses.
final class ImmediateAnswerTests: XCTestCase {
    /// Tags `X-Trace` in both entry points, so the synchronous chain's order is visible.
    struct SyncTrace: SynchronousMiddleware {
        let tag: String
        func respond(to request: Request, chainingTo next: any Responder) async throws -> Response {
            tagged(try await next.respond(to: request))
        }
        func respond(to request: Request, chainingTo next: ImmediateResponder) throws -> Response {
            tagged(try next(request))
        }
        private func tagged(_ response: Response) -> Response {
            var response = response
            response.headers.replaceOrAdd(name: "X-Trace", value: response.headers["X-Trace"].map { $0 + "," + tag } ?? tag)
            return response
        }
    }

    private func configure(_ app: Application) {
        app.middleware.append(SyncTrace(tag: "global"))
        app.get("now") { _ in "now" }
        app.get("later") { _ async throws -> String in
            try await Task.sleep(for: .milliseconds(1))
            return "later"
        }
        app.get("boom") { _ -> String in throw Abort(.conflict, reason: "taken") }
        app.grouped(SyncTrace(tag: "group")).get("grouped") { _ in "grouped" }
        app.grouped(TraceMiddleware(tag: "async")).get("behind-async") { _ in "behind" }
    }

    func testOnlyFullySynchronousChainsAnswerNow() throws {
        let app = makeApp()
        configure(app)
        let responder = app.makeResponder()
        func isNow(_ method: HTTPMethod, _ target: String) -> Bool {
            let head = HTTPRequestHead(method: method, target: target, version: .http1_1, headers: ["Host": "x"])
            if case .now = responder.answer(HTTPRequest(head: head)) { return true }
            return false
        }
        XCTAssertTrue(isNow(.get, "/now"))
        XCTAssertTrue(isNow(.head, "/now"))
        XCTAssertTrue(isNow(.get, "/boom"))
        XCTAssertTrue(isNow(.get, "/grouped"))
        XCTAssertTrue(isNow(.get, "/missing"), "a 404 passes only synchronous middleware")
        XCTAssertTrue(isNow(.post, "/now"), "so does a 405")
        XCTAssertFalse(isNow(.get, "/later"))
        XCTAssertFalse(isNow(.get, "/behind-async"))

        app.middleware.append(TraceMiddleware(tag: "async-global"))
        let everythingLater = app.makeResponder()
        let head = HTTPRequestHead(method: .get, target: "/now", version: .http1_1, headers: ["Host": "x"])
        guard case .later = everythingLater.answer(HTTPRequest(head: head)) else {
            return XCTFail("an async global middleware makes every route suspend")
        }
    }

    func testImmediateAndSuspendingAnswersLookAlike() async throws {
        try await withApp(configure: configure) { client in
            for (path, body) in [("/now", "now"), ("/later", "later"), ("/grouped", "grouped"), ("/behind-async", "behind")] {
                let response = try await client.send(.get, path)
                XCTAssertEqual(response.status.code, 200, path)
                XCTAssertEqual(response.bodyString, body, path)
                XCTAssertNotNil(response.headers["X-Request-ID"], path)
            }
            let grouped = try await client.send(.get, "/grouped")
            XCTAssertEqual(grouped.headers["X-Trace"], "group,global")
            let behindAsync = try await client.send(.get, "/behind-async")
            XCTAssertEqual(behindAsync.headers["X-Trace"], "async,global")

            let boom = try await client.send(.get, "/boom")
            XCTAssertEqual(boom.status.code, 409)
            XCTAssertEqual(boom.bodyString, #"{"error":true,"reason":"taken"}"#)
            XCTAssertNil(boom.headers["X-Trace"], "the error passed the tagging middleware; ErrorMiddleware, outermost, answered")
            let missing = try await client.send(.get, "/missing")
            XCTAssertEqual(missing.status.code, 404)
            let wrongMethod = try await client.send(.post, "/now")
            XCTAssertEqual(wrongMethod.status.code, 405)
            XCTAssertEqual(wrongMethod.headers["Allow"], "GET")
        }
    }
}
