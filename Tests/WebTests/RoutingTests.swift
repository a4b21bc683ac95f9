import Foundation
import Web
import WebTesting
import XCTest

final class RoutingTests: XCTestCase {
    func testConstantParameterAndWildcardRoutes() async throws {
        try await withApp(configure: { app in
            let api = app.grouped("api", "acronyms")
            api.get { _ in "list" }
            api.get("first") { _ in "first" }
            api.get(":acronymID") { req in "one \(try req.parameters.require("acronymID", as: UUID.self))" }
            api.get(":acronymID", "categories", ":categoryID") { req in
                "link \(try req.parameters.require("acronymID")) \(try req.parameters.require("categoryID"))"
            }
            app.get("files", "**") { _ in "catchall" }
            app.get("any", "*", "end") { _ in "anything" }
        }) { client in
            let id = UUID()
            let list = try await client.send(.get, "/api/acronyms")
            let first = try await client.send(.get, "/api/acronyms/first")
            let one = try await client.send(.get, "/api/acronyms/\(id)")
            let link = try await client.send(.get, "/api/acronyms/a/categories/b")
            let files = try await client.send(.get, "/files/x/y/z")
            let any = try await client.send(.get, "/any/thing/end")
            let slash = try await client.send(.get, "/api/acronyms/")
            XCTAssertEqual(list.bodyString, "list")
            XCTAssertEqual(first.bodyString, "first")
            XCTAssertEqual(one.bodyString, "one \(id)")
            XCTAssertEqual(link.bodyString, "link a b")
            XCTAssertEqual(files.bodyString, "catchall")
            XCTAssertEqual(any.bodyString, "anything")
            XCTAssertEqual(slash.bodyString, "list")
        }
    }

    /// Constant-only routes are looked up by their exact path first; every other spelling of
    /// the same path still reaches them through the trie, and HEAD still falls back to GET.
    func testConstantRoutesAnswerEverySpellingOfTheirPath() async throws {
        try await withApp(configure: { app in
            app.get("api", "acronyms", "first") { _ in "first" }
            app.get("api", "acronyms", ":acronymID") { req in "one \(try req.parameters.require("acronymID"))" }
            app.post("api", "acronyms", "first") { _ in "posted" }
        }) { client in
            for path in ["/api/acronyms/first", "/api/acronyms/fir%73t", "//api/acronyms/first", "/api/acronyms/first/"] {
                let response = try await client.send(.get, path)
                XCTAssertEqual(response.bodyString, "first", path)
            }
            let posted = try await client.send(.post, "/api/acronyms/first")
            let head = try await client.send(.head, "/api/acronyms/first")
            let delete = try await client.send(.delete, "/api/acronyms/first")
            let other = try await client.send(.get, "/api/acronyms/second")
            XCTAssertEqual(posted.bodyString, "posted")
            XCTAssertEqual(head.status, .ok)
            XCTAssertEqual(delete.status, .methodNotAllowed)
            XCTAssertEqual(other.bodyString, "one second")
        }
    }

    func testBadTypedParameterIs400AndUnknownPathIs404() async throws {
        try await withApp(configure: { app in
            app.get("items", ":id") { req in "\(try req.parameters.require("id", as: UUID.self))" }
        }) { client in
            let bad = try await client.send(.get, "/items/not-a-uuid")
            XCTAssertEqual(bad.status.code, 400)
            XCTAssertTrue(bad.bodyString.contains("Invalid id"), bad.bodyString)
            let missing = try await client.send(.get, "/nothing/here")
            XCTAssertEqual(missing.status.code, 404)
            XCTAssertEqual(try missing.decode(ErrorReply.self), ErrorReply(error: true, reason: "Not Found"))
        }
    }

    func testWrongMethodIs405WithAllow() async throws {
        try await withApp(configure: { app in
            app.get("thing") { _ in "get" }
            app.post("thing") { _ in "post" }
        }) { client in
            let response = try await client.send(.delete, "/thing")
            XCTAssertEqual(response.status.code, 405)
            XCTAssertEqual(response.headers["Allow"], "GET, POST")
        }
    }

    func testHeadUsesGetRouteWithoutBody() async throws {
        try await withApp(configure: { app in app.get("h") { _ in "hello" } }) { client in
            let response = try await client.send(.head, "/h")
            XCTAssertEqual(response.status.code, 200)
            XCTAssertEqual(response.headers["Content-Length"], "5")
            XCTAssertTrue(response.body.isEmpty)
        }
    }

    func testQueryParametersArePercentAndPlusDecoded() async throws {
        try await withApp(configure: { app in
            app.get("search") { req in "[\(req.query["term"] ?? "nil")][\(req.query["other"] ?? "nil")]" }
        }) { client in
            let response = try await client.send(.get, "/search?term=Oh+My%20God%21&x=1")
            XCTAssertEqual(response.bodyString, "[Oh My God!][nil]")
        }
    }

    func testPercentEncodedPathSegmentsAreDecoded() async throws {
        try await withApp(configure: { app in
            app.get("echo", ":word") { req in try req.parameters.require("word") }
        }) { client in
            let response = try await client.send(.get, "/echo/caf%C3%A9")
            XCTAssertEqual(response.bodyString, "café")
        }
    }

    func testRouteTableListsEveryRoute() throws {
        let app = Application(environment: .testing)
        app.get("a") { _ in "" }
        app.grouped("api").post("b", ":id") { _ in "" }
        XCTAssertEqual(app.routeTable, "GET   /a          public\nPOST  /api/b/:id  public")
    }
}

struct ErrorReply: Codable, Equatable {
    var error: Bool
    var reason: String
}
