import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// `POST /oauth/token`: its form rules, client authentication and `client_credentials`
/// (issue 18). The code and refresh grants have suites of their own.
final class TokenEndpointTests: XCTestCase {
    func testClientCredentialsIssuesAUserlessTokenThatOnlyCreatesCategories() async throws {
        try await withTestApp { app in
            let client = try await app.oauthClient()
            let response = try await app.client.postForm("/oauth/token", [("grant_type", "client_credentials")], auth: client.basic)
            XCTAssertEqual(response.status.code, 200, response.bodyString)
            XCTAssertEqual(response.headers["Cache-Control"], "no-store")
            XCTAssertEqual(response.headers["Pragma"], "no-cache")
            let answer = try response.jsonObject()
            XCTAssertEqual(answer["token_type"] as? String, "Bearer")
            XCTAssertEqual(answer["scope"] as? String, "categories:write", "only what works without a user")
            XCTAssertNil(answer["refresh_token"])
            XCTAssertTrue((3599...3600).contains(answer["expires_in"] as? Int ?? 0), "TOKEN_TTL, whole seconds: \(answer)")
            let token = try XCTUnwrap(answer["access_token"] as? String)

            let created = try await app.client.send(.post, "/api/categories", json: ["name": "Made by a robot"], auth: .bearer(token))
            XCTAssertEqual(created.status.code, 200, created.bodyString)
            // Every route that acts for a user refuses it cleanly: 403, never a crash.
            let acronym = try await Acronym.create(on: app)
            let userRoutes: [(HTTPMethod, String, [String: String]?)] = [
                (.get, "/api/users/me", nil), (.get, "/api/users/me/sessions", nil), (.post, "/api/users/logout", nil),
                (.post, "/api/users/logout-all", nil), (.post, "/api/acronyms", ["short": "X", "long": "Y"]),
                (.delete, "/api/acronyms/\(acronym.id)", nil), (.post, "/api/users", ["name": "n", "username": "u", "password": "password1"]),
                (.put, "/api/users/me/password", ["currentPassword": "password", "newPassword": "password2"]),
            ]
            for (method, path, body) in userRoutes {
                let refused: TestResponse
                if let body {
                    refused = try await app.client.send(method, path, json: body, auth: .bearer(token))
                } else {
                    refused = try await app.client.send(method, path, auth: .bearer(token))
                }
                XCTAssertEqual(refused.status.code, 403, "\(method) \(path): \(refused.bodyString)")
            }
            let rows = try await app.til.db.query("SELECT user_id, kind, client_id FROM sessions WHERE client_id = \(client.id)")
            XCTAssertEqual(rows.count, 1)
            XCTAssertNil(try rows.first?.decode(column: "user_id", as: UUID?.self))
            XCTAssertEqual(try rows.first?.decode(column: "kind", as: String.self), "oauth")
        }
    }

    func testClientCredentialsRefusesScopesThatNeedAUserAndPublicClients() async throws {
        try await withTestApp { app in
            let client = try await app.oauthClient()
            for scope in ["acronyms:write", "account", "users:write", "categories:write acronyms:write", "clients:write", "nope"] {
                let response = try await app.client.postForm(
                    "/oauth/token", [("grant_type", "client_credentials"), ("scope", scope)], auth: client.basic)
                assertOAuthError(response, 400, "invalid_scope", scope)
            }
            let narrow = try await app.client.postForm(
                "/oauth/token", [("grant_type", "client_credentials"), ("scope", "categories:write")], auth: client.basic)
            XCTAssertEqual(narrow.status.code, 200, narrow.bodyString)
            let publicClient = try await app.oauthClient(["token_endpoint_auth_method": "none", "grant_types": ["authorization_code"]])
            let refused = try await app.client.postForm("/oauth/token", [("grant_type", "client_credentials"), ("client_id", publicClient.id)])
            assertOAuthError(refused, 401, "invalid_client", "a public client")
        }
    }

    func testTheFormRulesOfRFC6749Section3Point2() async throws {
        try await withTestApp { app in
            let client = try await app.oauthClient()
            let json = try await app.client.send(.post, "/oauth/token", json: ["grant_type": "client_credentials"], auth: client.basic)
            assertOAuthError(json, 400, "invalid_request", "JSON")
            let repeated = try await app.client.postForm(
                "/oauth/token", [("grant_type", "client_credentials"), ("grant_type", "client_credentials")], auth: client.basic)
            assertOAuthError(repeated, 400, "invalid_request", "repeated")
            assertOAuthError(try await app.client.postForm("/oauth/token", [("scope", "x")], auth: client.basic), 400, "invalid_request")
            for grant in ["password", "implicit", "urn:ietf:params:oauth:grant-type:jwt-bearer", "client_credentials\u{0}", "CLIENT_CREDENTIALS"] {
                let response = try await app.client.postForm("/oauth/token", [("grant_type", grant)], auth: client.basic)
                assertOAuthError(response, 400, "unsupported_grant_type", grant)
            }
            let codeOnly = try await app.oauthClient(["grant_types": ["authorization_code"]])
            let unregistered = try await app.client.postForm("/oauth/token", [("grant_type", "client_credentials")], auth: codeOnly.basic)
            assertOAuthError(unregistered, 400, "unauthorized_client")
            let noDevice = try await app.client.postForm(
                "/oauth/token", [("grant_type", "urn:ietf:params:oauth:grant-type:device_code"), ("device_code", "x")], auth: client.basic)
            assertOAuthError(noDevice, 400, "unauthorized_client", "the device grant, not registered")
            let long = try await app.client.postForm("/oauth/token", [("grant_type", String(repeating: "x", count: 100_000))])
            assertOAuthError(long, 400, "unsupported_grant_type", "an oversized grant_type")
        }
    }

    func testClientAuthenticationFailuresAre401InvalidClientAndThrottled() async throws {
        try await withTestApp(settings: ["LOGIN_MAX_FAILURES": "3"]) { app in
            let client = try await app.oauthClient()
            let secret = try XCTUnwrap(client.secret)
            let grant = ("grant_type", "client_credentials")
            let wrong = try await app.client.postForm("/oauth/token", [grant], auth: .basic(client.id, secret + "x"))
            assertOAuthError(wrong, 401, "invalid_client", "wrong secret")
            XCTAssertEqual(wrong.headers["WWW-Authenticate"], #"Basic realm="TIL""#)
            let posted = try await app.client.postForm("/oauth/token", [grant, ("client_id", client.id), ("client_secret", secret)])
            assertOAuthError(posted, 401, "invalid_client", "a basic client using post")
            XCTAssertNil(posted.headers["WWW-Authenticate"], "no header was used")
            let both = try await app.client.postForm("/oauth/token", [grant, ("client_secret", secret)], auth: client.basic)
            assertOAuthError(both, 400, "invalid_request", "two methods")
            let unknown = try await app.client.postForm("/oauth/token", [grant], auth: .basic("nobody", secret))
            assertOAuthError(unknown, 401, "invalid_client", "an unknown client is answered as a wrong secret")
            let third = try await app.client.postForm("/oauth/token", [grant], auth: .basic(client.id, "guess"))
            assertOAuthError(third, 401, "invalid_client", "the third failure for the client")
            let fourth = try await app.client.postForm("/oauth/token", [grant], auth: .basic(client.id, "guess"))
            assertOAuthError(fourth, 429, "temporarily_unavailable", "past LOGIN_MAX_FAILURES")
            XCTAssertNotNil(fourth.headers["Retry-After"])
            let right = try await app.client.postForm("/oauth/token", [grant], auth: client.basic)
            XCTAssertEqual(right.status.code, 200, "the right secret is never slowed: \(right.bodyString)")
        }
    }

    func testAClientSecretPostClientAuthenticatesInTheBody() async throws {
        try await withTestApp { app in
            let client = try await app.oauthClient(["token_endpoint_auth_method": "client_secret_post"])
            let secret = try XCTUnwrap(client.secret)
            let posted = try await app.client.postForm(
                "/oauth/token", [("grant_type", "client_credentials"), ("client_id", client.id), ("client_secret", secret)])
            XCTAssertEqual(posted.status.code, 200, posted.bodyString)
            let header = try await app.client.postForm("/oauth/token", [("grant_type", "client_credentials")], auth: client.basic)
            assertOAuthError(header, 401, "invalid_client", "a post client using the header")
        }
    }

    /// RFC 8707: a token for another resource carries its scopes and is refused by TIL's API.
    func testAResourceTokenIsRefusedByTILsAPIAndAnUnknownResourceIsInvalidTarget() async throws {
        try await withTestApp(settings: ["RESOURCES": "https://notes.example=notes:read notes:write"]) { app in
            let client = try await app.oauthClient(["scope": "categories:write notes:read"])
            let response = try await app.client.postForm(
                "/oauth/token", [("grant_type", "client_credentials"), ("resource", "https://notes.example")], auth: client.basic)
            XCTAssertEqual(response.status.code, 200, response.bodyString)
            XCTAssertEqual(try response.jsonObject()["scope"] as? String, "notes:read")
            let token = try XCTUnwrap(try response.jsonObject()["access_token"] as? String)
            let refused = try await app.client.send(.post, "/api/categories", json: ["name": "x"], auth: .bearer(token))
            assertInvalidToken(refused, "a notes token at TIL's API")
            let me = try await app.client.send(.get, "/api/users/me", auth: .bearer(token))
            assertInvalidToken(me, "a notes token at TIL's API")
            for resource in ["https://other.example", "https://notes.example/", "https://NOTES.example", "https://nоtes.example"] {
                let unknown = try await app.client.postForm(
                    "/oauth/token", [("grant_type", "client_credentials"), ("resource", resource)], auth: client.basic)
                assertOAuthError(unknown, 400, "invalid_target", resource)
            }
            let own = try await app.client.postForm(
                "/oauth/token", [("grant_type", "client_credentials"), ("resource", "http://127.0.0.1:8080/api")], auth: client.basic)
            XCTAssertEqual(try own.jsonObject()["scope"] as? String, "categories:write", "TIL's own resource, named")
        }
    }

    /// The scopes a `client_credentials` token gets, by each of the grant's two ways: one
    /// statement when the request alone says which (asked ones, or the one scope that needs no
    /// user), the client's order when it decides (several, none asked: a second statement).
    /// The answer and the stored session agree either way.
    func testClientCredentialsScopesKeepTheirOrderOnEitherPath() async throws {
        try await withTestApp(settings: ["RESOURCES": "https://notes.example=notes:read notes:write"]) { app in
            let client = try await app.oauthClient(["scope": "notes:write categories:write notes:read"])
            let notes = ("resource", "https://notes.example")
            let cases: [([(String, String)], String)] = [
                ([notes], "notes:write notes:read"),
                ([notes, ("scope", "notes:read notes:write")], "notes:read notes:write"),
                ([notes, ("scope", "notes:read")], "notes:read"),
                ([], "categories:write"),
                ([("scope", "categories:write")], "categories:write"),
            ]
            for (fields, expected) in cases {
                let response = try await app.client.postForm("/oauth/token", [("grant_type", "client_credentials")] + fields, auth: client.basic)
                XCTAssertEqual(response.status.code, 200, "\(fields) \(response.bodyString)")
                XCTAssertEqual(try response.jsonObject()["scope"] as? String, expected, "\(fields)")
                let token = try XCTUnwrap(try response.jsonObject()["access_token"] as? String)
                let rows = try await app.til.db.query("""
                    SELECT s.scopes FROM tokens t JOIN sessions s ON s.id = t.session_id WHERE t.digest = \(SHA256.hex(of: token))
                    """)
                XCTAssertEqual(try rows.first?.decode(column: "scopes", as: String.self), expected, "\(fields)")
            }
            let beyond = try await app.client.postForm(
                "/oauth/token", [("grant_type", "client_credentials"), notes, ("scope", "notes:read categories:write")], auth: client.basic)
            assertOAuthError(beyond, 400, "invalid_scope", "categories:write is TIL's, not the notes resource's")
        }
    }
}
