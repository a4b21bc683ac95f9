import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// RFC 7009 revocation and RFC 7662 introspection (issue 18).
final class RevocationAndIntrospectionTests: XCTestCase {
    private func codeFlow(_ app: TestApp, _ client: TestOAuthClient) async throws -> (access: String, refresh: String) {
        let verifier = pkceVerifier()
        let code = try await app.insertAuthorizationCode(client: client, user: try await app.adminID(), verifier: verifier)
        let answer = try await AuthorizationCodeGrantTests.redeem(app.client, client, code: code, verifier: verifier).jsonObject()
        return (try XCTUnwrap(answer["access_token"] as? String), try XCTUnwrap(answer["refresh_token"] as? String))
    }

    func testAClientRevokesItsOwnTokensOnlyAndUnknownOnesAre200() async throws {
        try await withTestApp { app in
            let client = try await app.oauthClient()
            let stranger = try await app.oauthClient()
            let (access, refresh) = try await codeFlow(app, client)
            let refused = try await app.client.postForm("/oauth/revoke", [("token", access)], auth: stranger.basic)
            assertOAuthError(refused, 400, "unauthorized_client", "another client's token")
            let observed1 = try await app.client.meStatus(access)
            XCTAssertEqual(observed1, 200, "it stays valid")
            let login = try await app.client.session("admin")
            assertOAuthError(
                try await app.client.postForm("/oauth/revoke", [("token", login.value)], auth: client.basic), 400, "unauthorized_client")

            let unknown = try await app.client.postForm("/oauth/revoke", [("token", "no-such-token")], auth: client.basic)
            XCTAssertEqual(unknown.status.code, 200)
            let revokedAccess = try await app.client.postForm(
                "/oauth/revoke", [("token", access), ("token_type_hint", "access_token")], auth: client.basic)
            XCTAssertEqual(revokedAccess.status.code, 200, revokedAccess.bodyString)
            assertInvalidToken(try await app.client.send(.get, "/api/users/me", auth: .bearer(access)), "revoked")

            let (access2, refresh2) = try await codeFlow(app, client)
            let hintWrong = try await app.client.postForm(
                "/oauth/revoke", [("token", refresh2), ("token_type_hint", "access_token")], auth: client.basic)
            XCTAssertEqual(hintWrong.status.code, 200, "a hint is only a hint")
            assertInvalidToken(try await app.client.send(.get, "/api/users/me", auth: .bearer(access2)), "the refresh token's grant ended")
            assertOAuthError(
                try await app.client.postForm("/oauth/token", [("grant_type", "refresh_token"), ("refresh_token", refresh2)], auth: client.basic),
                400, "invalid_grant", "a revoked refresh token")
            let observed2 = try await app.client.refreshStatus(login.refreshToken)
            XCTAssertEqual(observed2, 200, "the login is untouched")
            _ = refresh
            let bad = try await app.client.postForm("/oauth/revoke", [("token", "x"), ("token_type_hint", "id_token")], auth: client.basic)
            assertOAuthError(bad, 400, "unsupported_token_type")
            assertOAuthError(try await app.client.postForm("/oauth/revoke", [("token", "x")], auth: .basic(client.id, "wrong")), 401, "invalid_client")
        }
    }

    func testIntrospectionDescribesAnActiveTokenAndNothingElse() async throws {
        try await withTestApp(settings: ["ISSUER": "https://til.example"]) { app in
            let server = try await app.oauthClient(["grant_types": ["client_credentials"], "redirect_uris": [String]()])
            let client = try await app.oauthClient()
            let (access, refresh) = try await codeFlow(app, client)
            let response = try await app.client.postForm("/oauth/introspect", [("token", access)], auth: server.basic)
            XCTAssertEqual(response.status.code, 200, response.bodyString)
            XCTAssertEqual(response.headers["Cache-Control"], "no-store")
            let active = try response.jsonObject()
            XCTAssertEqual(active["active"] as? Bool, true)
            XCTAssertEqual(active["scope"] as? String, "acronyms:write categories:write")
            XCTAssertEqual(active["client_id"] as? String, client.id)
            XCTAssertEqual(active["username"] as? String, "admin")
            let adminID = try await app.adminID()
            XCTAssertEqual(active["sub"] as? String, adminID.uuidString.lowercased())
            XCTAssertEqual(active["token_type"] as? String, "Bearer")
            XCTAssertEqual(active["aud"] as? String, "https://til.example/api")
            XCTAssertNotNil(active["exp"] as? Int)
            XCTAssertNotNil(active["iat"] as? Int)

            let expired = try await app.client.session("admin")
            try await app.til.db.execute("UPDATE tokens SET expires_at = now() - interval '1 second' WHERE session_id = \(expired.id)")
            for token in [refresh, "forged", expired.value, String(repeating: "x", count: 1000)] {
                let inactive = try await app.client.postForm("/oauth/introspect", [("token", token)], auth: server.basic)
                XCTAssertEqual(inactive.bodyString, #"{"active":false}"#, token)
            }
            _ = try await app.client.postForm("/oauth/revoke", [("token", access)], auth: client.basic)
            let revoked = try await app.client.postForm("/oauth/introspect", [("token", access)], auth: server.basic)
            XCTAssertEqual(revoked.bodyString, #"{"active":false}"#)

            assertOAuthError(try await app.client.postForm("/oauth/introspect", [("token", access)]), 401, "invalid_client", "anonymous")
            let wrong = try await app.client.postForm("/oauth/introspect", [("token", access)], auth: .basic(server.id, "nope"))
            assertOAuthError(wrong, 401, "invalid_client", "wrong secret")
            XCTAssertEqual(wrong.headers["WWW-Authenticate"], #"Basic realm="TIL""#)
            let publicClient = try await app.oauthClient(["token_endpoint_auth_method": "none", "grant_types": ["authorization_code"]])
            let byPublic = try await app.client.postForm("/oauth/introspect", [("token", access), ("client_id", publicClient.id)])
            assertOAuthError(byPublic, 401, "invalid_client", "public clients may not introspect")
        }
    }

    /// Revoked on one process, inactive and refused on another at once.
    func testARevocationIsSeenByAnotherProcess() async throws {
        try await withTestApp { app in
            let client = try await app.oauthClient()
            let (access, _) = try await codeFlow(app, client)
            let other = try ServerProcess(environment: try ServerProcess.testEnvironment(["BCRYPT_COST": "4"]))
            try await other.waitUntilHealthy()
            let observed3 = try await other.client.meStatus(access)
            XCTAssertEqual(observed3, 200)
            let revoked = try await other.client.postForm("/oauth/revoke", [("token", access)], auth: client.basic)
            XCTAssertEqual(revoked.status.code, 200)
            let observed4 = try await app.client.meStatus(access)
            XCTAssertEqual(observed4, 401)
            await [other].stopAll(showingOutputIf: hasFailed)
        }
    }
}
