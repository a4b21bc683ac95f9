import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The `authorization_code` grant (RFC 6749 §4.1.3, RFC 7636): codes as the authorization pages
/// store them (`insertAuthorizationCode`), redeemed once, with every binding checked.
final class AuthorizationCodeGrantTests: XCTestCase {
    private func redeem(
        _ app: TestApp, _ client: TestOAuthClient, code: String, verifier: String, redirectURI: String? = "https://app.example/cb"
    ) async throws -> TestResponse {
        try await Self.redeem(app.client, client, code: code, verifier: verifier, redirectURI: redirectURI)
    }

    /// The token request of a code, from `http` (a test app's or another process's client).
    static func redeem(
        _ http: TestClient, _ client: TestOAuthClient, code: String, verifier: String, redirectURI: String? = "https://app.example/cb"
    ) async throws -> TestResponse {
        var fields = [("grant_type", "authorization_code"), ("code", code), ("code_verifier", verifier)]
        if let redirectURI { fields.append(("redirect_uri", redirectURI)) }
        if client.secret == nil { fields.append(("client_id", client.id)) }
        return try await http.postForm("/oauth/token", fields, auth: client.basic)
    }

    func testACodeBuysTheUsersTokensOnceWithARefreshTokenForClientsRegisteredForIt() async throws {
        try await withTestApp { app in
            let client = try await app.oauthClient()
            let verifier = pkceVerifier()
            let code = try await app.insertAuthorizationCode(client: client, user: try await app.adminID(), verifier: verifier)
            let response = try await redeem(app, client, code: code, verifier: verifier)
            XCTAssertEqual(response.status.code, 200, response.bodyString)
            XCTAssertEqual(response.headers["Cache-Control"], "no-store")
            let answer = try response.jsonObject()
            XCTAssertEqual(answer["scope"] as? String, "acronyms:write categories:write")
            XCTAssertNotNil(answer["refresh_token"] as? String)
            let token = try XCTUnwrap(answer["access_token"] as? String)
            let me = try await app.client.send(.get, "/api/users/me", auth: .bearer(token))
            XCTAssertEqual(me.status.code, 200, me.bodyString)
            XCTAssertTrue(me.bodyString.contains("\"admin\""))
            let created = try await app.client.send(.post, "/api/acronyms", json: ["short": "OA", "long": "OAuth"], auth: .bearer(token))
            XCTAssertEqual(created.status.code, 200, created.bodyString)
            let account = try await app.client.send(.get, "/api/users/me/sessions", auth: .bearer(token))
            XCTAssertEqual(account.status.code, 403, "account was not granted")

            // RFC 6749 §4.1.2: a second redemption fails and revokes what the first issued.
            assertOAuthError(try await redeem(app, client, code: code, verifier: verifier), 400, "invalid_grant", "second redemption")
            assertInvalidToken(try await app.client.send(.get, "/api/users/me", auth: .bearer(token)), "revoked by the replay")

            let noRefresh = try await app.oauthClient(["grant_types": ["authorization_code"]])
            let other = pkceVerifier()
            let otherCode = try await app.insertAuthorizationCode(client: noRefresh, user: try await app.adminID(), verifier: other)
            let plain = try await redeem(app, noRefresh, code: otherCode, verifier: other)
            XCTAssertEqual(plain.status.code, 200, plain.bodyString)
            XCTAssertNil(try plain.jsonObject()["refresh_token"], "not registered for refresh_token")
        }
    }

    func testEveryMismatchIsInvalidGrantAndBurnsTheCode() async throws {
        try await withTestApp { app in
            let client = try await app.oauthClient()
            let stranger = try await app.oauthClient()
            let admin = try await app.adminID()
            let verifier = pkceVerifier()
            let cases: [(String, (String) async throws -> TestResponse)] = [
                ("wrong verifier", { try await self.redeem(app, client, code: $0, verifier: pkceVerifier()) }),
                ("plain verifier", { try await self.redeem(app, client, code: $0, verifier: PKCE.challenge(of: verifier)) }),
                ("short verifier", { try await self.redeem(app, client, code: $0, verifier: "abc") }),
                ("another client", { try await self.redeem(app, stranger, code: $0, verifier: verifier) }),
                ("other redirect", { try await self.redeem(app, client, code: $0, verifier: verifier, redirectURI: "https://app.example/cb2") }),
                ("no redirect", { try await self.redeem(app, client, code: $0, verifier: verifier, redirectURI: nil) }),
                ("look-alike redirect", { try await self.redeem(app, client, code: $0, verifier: verifier, redirectURI: "https://app.example/cb/") }),
            ]
            for (label, attempt) in cases {
                let code = try await app.insertAuthorizationCode(client: client, user: admin, verifier: verifier)
                assertOAuthError(try await attempt(code), 400, "invalid_grant", label)
                assertOAuthError(try await redeem(app, client, code: code, verifier: verifier), 400, "invalid_grant", "\(label): burnt")
            }
            let expired = try await app.insertAuthorizationCode(client: client, user: admin, verifier: verifier, ttl: -1)
            assertOAuthError(try await redeem(app, client, code: expired, verifier: verifier), 400, "invalid_grant", "expired")
            assertOAuthError(try await redeem(app, client, code: "unknown", verifier: verifier), 400, "invalid_grant", "unknown")
            assertOAuthError(
                try await redeem(app, client, code: String(repeating: "x", count: 5000), verifier: verifier), 400, "invalid_grant", "huge")
            let missing = try await app.client.postForm(
                "/oauth/token", [("grant_type", "authorization_code"), ("code", "x")], auth: client.basic)
            assertOAuthError(missing, 400, "invalid_request", "no verifier")
        }
    }

    /// When the authorization request carried no `redirect_uri` (one registered), the token
    /// request may omit it too; when it carried one, the identical string is required.
    func testAnOmittedRedirectURIMayBeOmittedAgain() async throws {
        try await withTestApp { app in
            let client = try await app.oauthClient(["token_endpoint_auth_method": "none", "grant_types": ["authorization_code"]])
            let verifier = pkceVerifier()
            let code = try await app.insertAuthorizationCode(
                client: client, user: try await app.adminID(), redirectURISent: false, verifier: verifier)
            let response = try await redeem(app, client, code: code, verifier: verifier, redirectURI: nil)
            XCTAssertEqual(response.status.code, 200, "a public client with client_id: \(response.bodyString)")
        }
    }

    /// RFC 8707: a code for another resource buys a token for it (its scopes only), refused by
    /// TIL's API; a resource the authorization request did not name is `invalid_target`.
    func testACodeForAnotherResourceBuysATokenForThatAudienceOnly() async throws {
        try await withTestApp(settings: ["RESOURCES": "https://notes.example=notes:read;https://mail.example=mail:send"]) { app in
            let client = try await app.oauthClient(["scope": "acronyms:write notes:read mail:send"])
            let admin = try await app.adminID()
            let verifier = pkceVerifier()
            let code = try await app.insertAuthorizationCode(
                client: client, user: admin, verifier: verifier, scopes: "acronyms:write notes:read", resources: "https://notes.example")
            var fields = [("grant_type", "authorization_code"), ("code", code), ("code_verifier", verifier)]
            fields += [("redirect_uri", "https://app.example/cb"), ("resource", "https://notes.example")]
            let response = try await app.client.postForm("/oauth/token", fields, auth: client.basic)
            XCTAssertEqual(response.status.code, 200, response.bodyString)
            XCTAssertEqual(try response.jsonObject()["scope"] as? String, "notes:read")
            let token = try XCTUnwrap(try response.jsonObject()["access_token"] as? String)
            assertInvalidToken(try await app.client.send(.get, "/api/users/me", auth: .bearer(token)), "a notes token at TIL's API")

            let other = try await app.insertAuthorizationCode(
                client: client, user: admin, verifier: verifier, scopes: "notes:read", resources: "https://notes.example")
            var elsewhere = [("grant_type", "authorization_code"), ("code", other), ("code_verifier", verifier)]
            elsewhere += [("redirect_uri", "https://app.example/cb"), ("resource", "https://mail.example")]
            assertOAuthError(try await app.client.postForm("/oauth/token", elsewhere, auth: client.basic), 400, "invalid_target")
        }
    }

    /// Two redemptions of one code at once: exactly one gets tokens.
    func testConcurrentRedemptionsOfOneCodeLetExactlyOneThrough() async throws {
        try await withTestApp(.live) { app in
            let client = try await app.oauthClient()
            let verifier = pkceVerifier()
            for _ in 0..<5 {
                let code = try await app.insertAuthorizationCode(client: client, user: try await app.adminID(), verifier: verifier)
                let http = app.client
                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<4 { group.addTask { try await Self.redeem(http, client, code: code, verifier: verifier).status.code } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                XCTAssertEqual(statuses.sorted(), [200, 400, 400, 400])
            }
        }
    }

    /// A code redeemed by one til-server process is spent for another, and a replay there
    /// revokes what the first process issued.
    func testACodeRedeemedOnOneProcessIsSpentOnAnother() async throws {
        try await withTestApp { app in
            let client = try await app.oauthClient()
            let verifier = pkceVerifier()
            let code = try await app.insertAuthorizationCode(client: client, user: try await app.adminID(), verifier: verifier)
            let other = try ServerProcess(environment: try ServerProcess.testEnvironment(["BCRYPT_COST": "4"]))
            try await other.waitUntilHealthy()
            let there = try await Self.redeem(other.client, client, code: code, verifier: verifier)
            XCTAssertEqual(there.status.code, 200, there.bodyString)
            let token = try XCTUnwrap(try there.jsonObject()["access_token"] as? String)
            assertOAuthError(try await redeem(app, client, code: code, verifier: verifier), 400, "invalid_grant", "spent elsewhere")
            let revoked = try await other.client.send(.get, "/api/users/me", auth: .bearer(token))
            assertInvalidToken(revoked, "revoked by the replay on the other process")
            await [other].stopAll(showingOutputIf: hasFailed)
        }
    }
}
