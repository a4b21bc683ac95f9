import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The `refresh_token` grant at `/oauth/token` (RFC 6749 §6): TIL's rotation and reuse
/// detection, bound to the client, narrowing without widening; and each door keeps its tokens.
final class OAuthRefreshTests: XCTestCase {
    /// A code flow's answer for the admin, with `scopes`.
    private func grant(_ app: TestApp, _ client: TestOAuthClient, scopes: String = "acronyms:write categories:write") async throws -> [String: Any] {
        let verifier = pkceVerifier()
        let code = try await app.insertAuthorizationCode(client: client, user: try await app.adminID(), verifier: verifier, scopes: scopes)
        let response = try await AuthorizationCodeGrantTests.redeem(app.client, client, code: code, verifier: verifier)
        XCTAssertEqual(response.status.code, 200, response.bodyString)
        return try response.jsonObject()
    }

    private static func refresh(_ http: TestClient, _ client: TestOAuthClient, _ token: String, scope: String? = nil) async throws -> TestResponse {
        var fields = [("grant_type", "refresh_token"), ("refresh_token", token)]
        if let scope { fields.append(("scope", scope)) }
        return try await http.postForm("/oauth/token", fields, auth: client.basic)
    }

    func testARefreshRotatesNarrowsTheAccessTokenAndKeepsTheWholeGrant() async throws {
        try await withTestApp { app in
            let client = try await app.oauthClient()
            let first = try await grant(app, client)
            let narrowed = try await Self.refresh(app.client, client, try XCTUnwrap(first["refresh_token"] as? String), scope: "acronyms:write")
            XCTAssertEqual(narrowed.status.code, 200, narrowed.bodyString)
            let answer = try narrowed.jsonObject()
            XCTAssertEqual(answer["scope"] as? String, "acronyms:write")
            let narrowToken = try XCTUnwrap(answer["access_token"] as? String)
            let refused = try await app.client.send(.post, "/api/categories", json: ["name": "x"], auth: .bearer(narrowToken))
            XCTAssertEqual(refused.status.code, 403, "narrowed: \(refused.bodyString)")
            let allowed = try await app.client.send(.post, "/api/acronyms", json: ["short": "N", "long": "Narrow"], auth: .bearer(narrowToken))
            XCTAssertEqual(allowed.status.code, 200, allowed.bodyString)

            let second = try XCTUnwrap(answer["refresh_token"] as? String)
            let widened = try await Self.refresh(app.client, client, second, scope: "acronyms:write account")
            assertOAuthError(widened, 400, "invalid_scope", "never wider than the grant")
            let whole = try await Self.refresh(app.client, client, second)
            XCTAssertEqual(try whole.jsonObject()["scope"] as? String, "acronyms:write categories:write", "the refresh token kept the grant")
            let wholeToken = try XCTUnwrap(try whole.jsonObject()["access_token"] as? String)
            let categories = try await app.client.send(.post, "/api/categories", json: ["name": "y"], auth: .bearer(wholeToken))
            XCTAssertEqual(categories.status.code, 200, categories.bodyString)
            assertOAuthError(try await Self.refresh(app.client, client, first["refresh_token"] as? String ?? ""), 400, "invalid_grant", "reuse")
            assertInvalidToken(try await app.client.send(.get, "/api/users/me", auth: .bearer(wholeToken)), "reuse revoked the grant")
        }
    }

    func testEachDoorKeepsItsRefreshTokensAndEachClientItsOwn() async throws {
        try await withTestApp { app in
            let client = try await app.oauthClient()
            let stranger = try await app.oauthClient()
            let granted = try await grant(app, client)
            let oauth = try XCTUnwrap(granted["refresh_token"] as? String)
            let login = try await app.client.session("admin")

            assertOAuthError(try await Self.refresh(app.client, client, login.refreshToken), 400, "invalid_grant", "a Basic login's token")
            assertInvalidToken(try await app.client.refresh(oauth), "an OAuth token at /api/users/refresh")
            assertOAuthError(try await Self.refresh(app.client, stranger, oauth), 400, "invalid_grant", "another client's token")
            let own = try await Self.refresh(app.client, client, oauth)
            XCTAssertEqual(own.status.code, 200, "refused elsewhere, nothing was spent: \(own.bodyString)")
            let loginStill = try await app.client.refresh(login.refreshToken)
            XCTAssertEqual(loginStill.status.code, 200, loginStill.bodyString)
            assertOAuthError(try await Self.refresh(app.client, client, String(repeating: "x", count: 600)), 400, "invalid_grant", "malformed")
            let missing = try await app.client.postForm("/oauth/token", [("grant_type", "refresh_token")], auth: client.basic)
            assertOAuthError(missing, 400, "invalid_request", "no refresh_token")
        }
    }

    /// A public client refreshes with its client_id alone; its grant ends with the user's
    /// logout-all, as every session of theirs does.
    func testAPublicClientRefreshesAndLogoutAllEndsItsGrant() async throws {
        try await withTestApp { app in
            let client = try await app.oauthClient([
                "token_endpoint_auth_method": "none", "grant_types": ["authorization_code", "refresh_token"],
                "redirect_uris": ["http://127.0.0.1/cb"],
            ])
            let verifier = pkceVerifier()
            let code = try await app.insertAuthorizationCode(
                client: client, user: try await app.adminID(), redirectURI: "http://127.0.0.1/cb", verifier: verifier)
            let granted = try await AuthorizationCodeGrantTests.redeem(
                app.client, client, code: code, verifier: verifier, redirectURI: "http://127.0.0.1/cb")
            let refresh = try XCTUnwrap(try granted.jsonObject()["refresh_token"] as? String)
            let fields = [("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", client.id)]
            let rotated = try await app.client.postForm("/oauth/token", fields)
            XCTAssertEqual(rotated.status.code, 200, rotated.bodyString)
            let access = try XCTUnwrap(try rotated.jsonObject()["access_token"] as? String)
            let next = try XCTUnwrap(try rotated.jsonObject()["refresh_token"] as? String)

            let account = try await app.client.session("admin", scope: "account")
            let everywhere = try await app.client.send(.post, "/api/users/logout-all", auth: .bearer(account.value))
            XCTAssertEqual(everywhere.status.code, 204)
            assertInvalidToken(try await app.client.send(.get, "/api/users/me", auth: .bearer(access)), "logout-all ends OAuth sessions")
            let after = try await app.client.postForm("/oauth/token", [("grant_type", "refresh_token"), ("refresh_token", next), ("client_id", client.id)])
            assertOAuthError(after, 400, "invalid_grant", "the grant ended")
        }
    }

    /// The same refresh token twice at once: one rotation, and reuse detection for the other.
    func testConcurrentRefreshesOfOneTokenLetExactlyOneThrough() async throws {
        try await withTestApp(.live) { app in
            let client = try await app.oauthClient()
            let granted = try await grant(app, client)
            let token = try XCTUnwrap(granted["refresh_token"] as? String)
            let http = app.client
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<4 { group.addTask { try await Self.refresh(http, client, token).status.code } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            XCTAssertEqual(statuses.filter { $0 == 200 }.count, 1, "\(statuses)")
            XCTAssertEqual(statuses.filter { $0 == 400 }.count, 3, "\(statuses)")
        }
    }
}
