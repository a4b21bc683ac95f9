import App
import AppTesting
import Foundation
import Web
import WebTesting
import XCTest

/// Scopes: what `?scope=` grants, and the scope each operation needs, read from the document.
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

    /// Every operation the document gives a scope, called for real: a token holding every
    /// other scope gets 403 `insufficient_scope` naming it; a token holding only it gets through.
    func testEachOperationNeedsTheScopeTheDocumentNames() async throws {
        try await withTestApp { app in
            let contract = try await OpenAPIContract.served(by: app)
            let scopes = try contract.documentedScopes()
            var checked = 0
            for operation in try contract.documentedOperations() where !operation.bearerScopes.isEmpty
                && scopes.isSuperset(of: operation.bearerScopes) {  // OpenID Connect's: OpenIDUserInfoTests
                let needed = operation.bearerScopes.joined(separator: " ")
                let fixture = try await OperationFixture.make(on: app)
                let others = scopes.subtracting(operation.bearerScopes).sorted().joined(separator: " ")
                let lacking = try await app.client.session(fixture.user.username, scope: others)
                let refused = try await fixture.send(operation, in: contract, to: app.client, bearer: lacking.value)
                assertInsufficientScope(refused, needed: needed, "\(operation) with \(others)")

                let holding = try await app.client.session(fixture.user.username, scope: needed)
                XCTAssertEqual(holding.scopes, operation.bearerScopes)
                let accepted = try await fixture.send(
                    operation, in: contract, to: app.client, bearer: holding.value,
                    overriding: try await fixture.secondFactor(for: operation, on: app))
                XCTAssertLessThan(accepted.status.code, 300, "\(operation) with \(needed): \(accepted.bodyString)")
                checked += 1
            }
            XCTAssertGreaterThan(checked, 0, "the document names no scope")
        }
    }

    /// Operations documented with a bearer token but no scope take any valid token, whatever
    /// its scope; every bearer operation refuses a request without one.
    func testBearerOperationsWithoutAScopeTakeAnyValidToken() async throws {
        try await withTestApp { app in
            let contract = try await OpenAPIContract.served(by: app)
            for operation in try contract.documentedOperations() where operation.needsBearerToken {
                let fixture = try await OperationFixture.make(on: app)
                let anonymous = try await fixture.send(operation, in: contract, to: app.client, bearer: nil)
                XCTAssertEqual(anonymous.status.code, 401, "\(operation) without a token")
                XCTAssertEqual(anonymous.headers["WWW-Authenticate"], plainBearerChallenge, "\(operation)")
                guard operation.bearerScopes.isEmpty else { continue }
                for scope in try contract.documentedScopes().sorted() {
                    let login = try await app.client.session(fixture.user.username, scope: scope)
                    let response = try await fixture.send(operation, in: contract, to: app.client, bearer: login.value)
                    XCTAssertLessThan(response.status.code, 300, "\(operation) with \(scope): \(response.bodyString)")
                }
            }
        }
    }

    /// Operations the document leaves public answer without a token. (Those that authenticate
    /// an OAuth client instead, `x-client-authentication`, and the pages' steps that need a
    /// browser's cookies and forms or a registered client, `x-browser-flow`, have suites of
    /// their own.)
    func testPublicOperationsNeedNoToken() async throws {
        try await withTestApp { app in
            let contract = try await OpenAPIContract.served(by: app)
            for operation in try contract.documentedOperations()
            where operation.access == .public && operation.spec["x-client-authentication"] != .bool(true)
                && operation.spec["x-browser-flow"] != .bool(true) {
                let fixture = try await OperationFixture.make(on: app)
                let response = try await fixture.send(
                    operation, in: contract, to: app.client, bearer: nil, overriding: try await fixture.secondFactor(for: operation, on: app))
                XCTAssertLessThan(response.status.code, 300, "\(operation): \(response.bodyString)")
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
