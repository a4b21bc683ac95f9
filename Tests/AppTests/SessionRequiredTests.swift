import AppTesting
import Foundation
import Web
import WebTesting
import XCTest
@testable import App

/// The routes that manage the account need a login, not a personal access token
/// (`SessionRequired`): the document marks them `x-needs-login`, exactly the routes whose
/// middleware holds the rule, and each one answers a token holding every scope a token may
/// hold 403 "needs a login, not a personal access token" while the login that made it passes.
final class SessionRequiredTests: XCTestCase {
    func testTheDocumentMarksExactlyTheRoutesThatNeedALogin() async throws {
        try await withTestApp { app in
            let contract = try await OpenAPIContract.served(by: app)
            let marked = Set(try contract.documentedOperations().filter { $0.spec["x-needs-login"] == .bool(true) }.map {
                "\($0.method.rawValue) \($0.routePath)"
            })
            let guarded = Set(app.app.routes.filter { route in route.middleware.contains { $0 is SessionRequired } }.map(\.description))
            XCTAssertEqual(guarded.subtracting(marked).sorted(), [], "routes that refuse a personal access token, not marked x-needs-login")
            XCTAssertEqual(marked.subtracting(guarded).sorted(), [], "operations marked x-needs-login whose route does not refuse one")
            // What the issue names, at the least.
            for needed in [
                "POST /api/users/me/tokens", "GET /api/users/me/tokens", "DELETE /api/users/me/tokens/:tokenID",
                "GET /api/users/me/sessions", "DELETE /api/users/me/sessions/:sessionID", "POST /api/users/logout-all",
                "PUT /api/users/me/password", "POST /api/users/me/mfa/totp", "POST /api/users/me/mfa/recovery-codes",
                "DELETE /api/users/me/passkeys/:passkeyID", "POST /api/users/me/reauth", "PUT /api/users/me/email",
                "POST /api/users/me/email/verification",
            ] {
                XCTAssertTrue(guarded.contains(needed), "\(needed) takes a personal access token")
            }
        }
    }

    func testEveryOperationThatNeedsALoginRefusesAPersonalAccessToken() async throws {
        try await withTestApp { app in
            let contract = try await OpenAPIContract.served(by: app)
            let operations = try contract.documentedOperations().filter { $0.spec["x-needs-login"] == .bool(true) }
            XCTAssertGreaterThan(operations.count, 10)
            for operation in operations {
                let fixture = try await OperationFixture.make(on: app)
                let pat = try await app.client.pat(
                    scopes: PersonalAccessTokenDraft.allowedScopes.map(\.rawValue), bearer: fixture.session.value)
                let refused = try await fixture.send(operation, in: contract, to: app.client, bearer: pat.token)
                assertNeedsLogin(refused, "\(operation)")
                contract.check(refused, operation.method, operation.path)
                let stillLive = try await app.client.meStatus(pat.token)
                XCTAssertEqual(stillLive, 200, "\(operation) ended the token that called it")
            }
        }
    }

    /// Where no login is needed, a personal access token is as good as a login's token: every
    /// other bearer operation it holds the scope for gets past authentication.
    func testOtherBearerOperationsTakeAPersonalAccessToken() async throws {
        try await withTestApp { app in
            let contract = try await OpenAPIContract.served(by: app)
            let allowed = Set(PersonalAccessTokenDraft.allowedScopes.map(\.rawValue))
            var checked = 0
            for operation in try contract.documentedOperations()
            where operation.needsBearerToken && operation.spec["x-needs-login"] != .bool(true) && allowed.isSuperset(of: operation.bearerScopes) {
                let fixture = try await OperationFixture.make(on: app)
                let pat = try await app.client.pat(scopes: Array(allowed), bearer: fixture.session.value)
                let response = try await fixture.send(operation, in: contract, to: app.client, bearer: pat.token)
                XCTAssertLessThan(response.status.code, 300, "\(operation): \(response.bodyString)")
                checked += 1
            }
            XCTAssertGreaterThan(checked, 5)
        }
    }
}
