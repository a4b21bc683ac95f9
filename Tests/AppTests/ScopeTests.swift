import App
import AppTesting
import Foundation
import Web
import WebTesting
import XCTest

/// Scopes: what `?scope=` grants and which scope each guarded route needs.
final class ScopeTests: XCTestCase {
    func testTokenWithoutTheRoutesScopeIs403InsufficientScope() async throws {
        try await withTestApp { app in
            let login = try await app.client.session("admin", scope: "acronyms:write")
            XCTAssertEqual(login.scopes, ["acronyms:write"])
            let refused = try await app.client.send(.post, "/api/categories", json: ["name": "Nope"], auth: .bearer(login.value))
            assertInsufficientScope(refused, needed: "categories:write")
            let categories = try await app.client.send(.get, "/api/categories")
            XCTAssertEqual(categories.bodyString, "[]", "a refused request changes nothing")
            let allowed = try await app.client.send(
                .post, "/api/acronyms", json: ["short": "OMG", "long": "Oh My God"], auth: .bearer(login.value))
            XCTAssertEqual(allowed.status.code, 200, allowed.bodyString)
        }
    }

    /// Every guarded route refuses a token holding every scope but its own, and accepts one
    /// holding only its own.
    func testEachRouteNeedsItsScope() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            for route in Self.routes {
                let acronym = try await Acronym.create(user: user, on: app)
                let category = try await App.Category.create(on: app)
                let others = allScopes.subtracting([route.scope]).sorted().joined(separator: " ")
                let lacking = try await app.client.session(user.username, scope: others)
                let refused = try await route.send(app.client, lacking, acronym.id, category.id)
                assertInsufficientScope(refused, needed: route.scope, "\(route.method) \(route.path)")

                let holding = try await app.client.session(user.username, scope: route.scope)
                XCTAssertEqual(holding.scopes, [route.scope])
                let accepted = try await route.send(app.client, holding, acronym.id, category.id)
                XCTAssertLessThan(accepted.status.code, 300, "\(route.method) \(route.path) with \(route.scope): \(accepted.bodyString)")
            }
        }
    }

    func testAnyValidTokenMayReadMeAndLogOut() async throws {
        try await withTestApp { app in
            for scope in allScopes.sorted() {
                let login = try await app.client.session("admin", scope: scope)
                let me = try await app.client.meStatus(login.value)
                XCTAssertEqual(me, 200, scope)
                let logout = try await app.client.send(.post, "/api/users/logout", auth: .bearer(login.value))
                XCTAssertEqual(logout.status.code, 204, scope)
            }
        }
    }

    func testPublicReadsNeedNoToken() async throws {
        try await withTestApp { app in
            let acronym = try await Acronym.create(on: app)
            for path in ["/api/acronyms", "/api/acronyms/\(acronym.id)", "/api/categories", "/api/users", "/api/users/\(acronym.user.id)"] {
                let response = try await app.client.send(.get, path)
                XCTAssertEqual(response.status.code, 200, path)
            }
        }
    }

    func testUnknownOrEmptyScopeIs400InvalidScope() async throws {
        try await withTestApp { app in
            for scope in ["admin", "acronyms:write bogus", "ACCOUNT", ""] {
                let response = try await app.client.login("admin", scope: scope)
                XCTAssertEqual(response.status.code, 400, "scope \(scope): \(response.bodyString)")
                let reason = (try? response.decode(ErrorAnswer.self))?.reason ?? ""
                XCTAssertTrue(reason.contains("invalid_scope"), "scope \(scope): \(response.bodyString)")
            }
        }
    }

    func testRefreshedPairKeepsTheScopes() async throws {
        try await withTestApp { app in
            let login = try await app.client.session("admin", scope: "categories:write")
            let pair = try await app.client.refreshed(login.refreshToken)
            XCTAssertEqual(pair.scopes, ["categories:write"])
            let refused = try await app.client.send(
                .post, "/api/acronyms", json: ["short": "OMG", "long": "Oh My God"], auth: .bearer(pair.value))
            assertInsufficientScope(refused, needed: "acronyms:write")
            let allowed = try await app.client.send(.post, "/api/categories", json: ["name": "Kept"], auth: .bearer(pair.value))
            XCTAssertEqual(allowed.status.code, 200, allowed.bodyString)
        }
    }

    // MARK: The contract's table

    struct Route: Sendable {
        var scope: String
        var method: HTTPMethod
        var path: String
        /// Sends the request with a valid body for `login`'s user.
        var send: @Sendable (TestClient, LoginAnswer, UUID, UUID) async throws -> TestResponse
    }

    static let routes: [Route] = [
        Route(scope: "acronyms:write", method: .post, path: "/api/acronyms") { client, login, _, _ in
            try await client.send(.post, "/api/acronyms", json: ["short": "A", "long": "B"], auth: .bearer(login.value))
        },
        Route(scope: "acronyms:write", method: .put, path: "/api/acronyms/:id") { client, login, acronym, _ in
            try await client.send(.put, "/api/acronyms/\(acronym)", json: ["short": "A", "long": "C"], auth: .bearer(login.value))
        },
        Route(scope: "acronyms:write", method: .post, path: "/api/acronyms/:id/categories/:cid") { client, login, acronym, category in
            try await client.send(.post, "/api/acronyms/\(acronym)/categories/\(category)", auth: .bearer(login.value))
        },
        Route(scope: "acronyms:write", method: .delete, path: "/api/acronyms/:id/categories/:cid") { client, login, acronym, category in
            try await client.send(.delete, "/api/acronyms/\(acronym)/categories/\(category)", auth: .bearer(login.value))
        },
        Route(scope: "acronyms:write", method: .delete, path: "/api/acronyms/:id") { client, login, acronym, _ in
            try await client.send(.delete, "/api/acronyms/\(acronym)", auth: .bearer(login.value))
        },
        Route(scope: "categories:write", method: .post, path: "/api/categories") { client, login, _, _ in
            try await client.send(.post, "/api/categories", json: ["name": "C\(UUID())"], auth: .bearer(login.value))
        },
        Route(scope: "users:write", method: .post, path: "/api/users") { client, login, _, _ in
            try await client.send(
                .post, "/api/users", json: ["name": "N", "username": "u\(UUID())", "password": "password"], auth: .bearer(login.value))
        },
        Route(scope: "account", method: .get, path: "/api/users/me/sessions") { client, login, _, _ in
            try await client.send(.get, "/api/users/me/sessions", auth: .bearer(login.value))
        },
        Route(scope: "account", method: .put, path: "/api/users/me/password") { client, login, _, _ in
            try await client.send(
                .put, "/api/users/me/password",
                json: ["currentPassword": "password", "newPassword": "password"], auth: .bearer(login.value))
        },
        Route(scope: "account", method: .delete, path: "/api/users/me/sessions/:sessionID") { client, login, _, _ in
            try await client.send(.delete, "/api/users/me/sessions/\(login.id)", auth: .bearer(login.value))
        },
        Route(scope: "account", method: .post, path: "/api/users/logout-all") { client, login, _, _ in
            try await client.send(.post, "/api/users/logout-all", auth: .bearer(login.value))
        },
    ]
}

/// Asserts the contract's 403 for a valid token that lacks `needed`.
func assertInsufficientScope(
    _ response: TestResponse, needed: String, _ message: String = "", file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertEqual(response.status.code, 403, "\(message): \(response.bodyString)", file: file, line: line)
    let challenge = response.headers["WWW-Authenticate"] ?? ""
    XCTAssertTrue(challenge.hasPrefix(#"Bearer realm="TIL""#), "\(message): challenge \(challenge)", file: file, line: line)
    XCTAssertTrue(challenge.contains(#"error="insufficient_scope""#), "\(message): challenge \(challenge)", file: file, line: line)
    XCTAssertTrue(challenge.contains(#"scope="\#(needed)""#), "\(message): challenge \(challenge)", file: file, line: line)
}
