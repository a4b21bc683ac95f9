import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// OpenID Connect Core §5.3 (`/oauth/userinfo`) and Discovery 1.0 (`/.well-known/openid-configuration`).
final class OpenIDUserInfoTests: XCTestCase {
    func testUserInfoAnswersSubAndTheProfileTheScopesAllowByGETAndPOST() async throws {
        try await withTestApp { app in
            let user = try await User.create(name: "Cut Lawquane", username: "cut", on: app)
            let rp = try await RelyingParty.register(on: app)
            let browser = BrowserClient(app.client)
            let withProfile = try await rp.accessToken(app, browser, "cut", scope: "openid profile")
            for method in [HTTPMethod.get, .post] {
                let response = try await app.client.send(method, "/oauth/userinfo", auth: .bearer(withProfile))
                XCTAssertEqual(response.status.code, 200, "\(method): \(response.bodyString)")
                XCTAssertEqual(response.headers["Cache-Control"], "no-store")
                let claims = try response.jsonObject()
                XCTAssertEqual(claims["sub"] as? String, user.id.uuidString.lowercased(), "\(method)")
                XCTAssertEqual(claims["name"] as? String, "Cut Lawquane")
                XCTAssertEqual(claims["preferred_username"] as? String, "cut")
                XCTAssertEqual(Set(claims.keys), ["sub", "name", "preferred_username"])
            }
            let openidOnly = try await rp.accessToken(app, browser, "cut", scope: "openid")
            let bare = try await app.client.send(.get, "/oauth/userinfo", auth: .bearer(openidOnly)).jsonObject()
            XCTAssertEqual(Set(bare.keys), ["sub"])
        }
    }

    /// Bad input: no token, a malformed, unknown or revoked one (401 `invalid_token`), one
    /// without `openid` (403 `insufficient_scope`, a Basic login's or an OAuth grant's), a
    /// token in the query or the body (400 `invalid_request`): each with RFC 6750's challenge.
    func testEveryBadTokenGetsItsBearerError() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "waxer", on: app)
            let rp = try await RelyingParty.register(on: app)
            let browser = BrowserClient(app.client)
            let good = try await rp.accessToken(app, browser, "waxer", scope: "openid")
            let missing = try await app.client.send(.get, "/oauth/userinfo")
            XCTAssertEqual(missing.status.code, 401)
            XCTAssertTrue(missing.headers["WWW-Authenticate"]?.hasPrefix(#"Bearer realm="TIL""#) == true)
            for bad in ["no-such-token", String(repeating: "x", count: 43), String(repeating: "y", count: 600)] {
                let response = try await app.client.send(.get, "/oauth/userinfo", auth: .bearer(bad))
                XCTAssertEqual(response.status.code, 401, bad.prefix(20) + ": " + response.bodyString)
                XCTAssertTrue(response.headers["WWW-Authenticate"]?.contains(#"error="invalid_token""#) == true)
            }
            let login = try await app.client.session("waxer", scope: "acronyms:write").value
            let oauthOnly = try await rp.accessToken(app, browser, "waxer", scope: "acronyms:write", nonce: nil)
            for token in [login, oauthOnly] {
                let response = try await app.client.send(.get, "/oauth/userinfo", auth: .bearer(token))
                XCTAssertEqual(response.status.code, 403, response.bodyString)
                let challenge = response.headers["WWW-Authenticate"] ?? ""
                XCTAssertTrue(challenge.contains(#"error="insufficient_scope""#) && challenge.contains(#"scope="openid""#), challenge)
            }
            let inQuery = try await app.client.send(.get, "/oauth/userinfo?access_token=\(good)")
            XCTAssertEqual(inQuery.status.code, 400, inQuery.bodyString)
            XCTAssertTrue(inQuery.headers["WWW-Authenticate"]?.contains(#"error="invalid_request""#) == true)
            let inBody = try await app.client.postForm("/oauth/userinfo", [("access_token", good)])
            XCTAssertEqual(inBody.status.code, 400, inBody.bodyString)
            let both = try await app.client.postForm("/oauth/userinfo", [("access_token", good)], auth: .bearer(good))
            XCTAssertEqual(both.status.code, 400, "RFC 6750 §2: one method only")
            // Revoked: the grant's session ended.
            try await app.til.db.execute("UPDATE sessions SET revoked_at = now() WHERE kind = 'oauth'")
            let revoked = try await app.client.send(.get, "/oauth/userinfo", auth: .bearer(good))
            XCTAssertEqual(revoked.status.code, 401)
        }
    }

    /// Unicode: a username and a name sent decomposed are stored composed (NFC), and
    /// `preferred_username` and `name` are exactly what is stored, in userinfo and the ID token.
    func testProfileClaimsAreTheStoredNFCSpellings() async throws {
        try await withTestApp(settings: ["COMMON_PASSWORD_CHECK": "off"]) { app in
            let decomposedName = "Zoe\u{0308} Ba\u{0301}n", decomposedUsername = "zoe\u{0308}"
            let created = try await app.client.send(
                .post, "/api/users", json: ["name": decomposedName, "username": decomposedUsername, "password": "password"],
                auth: .bearer(try await app.client.session("admin", scope: "users:write").value))
            XCTAssertEqual(created.status.code, 200, created.bodyString)
            let stored = try await app.til.db.query("SELECT name, username FROM users WHERE username = \("zoë")")
            let row = try XCTUnwrap(stored.first, "stored NFC")
            let (name, username) = (try row.decode(column: "name", as: String.self), try row.decode(column: "username", as: String.self))
            XCTAssertEqual(Array(username.unicodeScalars), Array("zo\u{00EB}".unicodeScalars))
            let rp = try await RelyingParty.register(on: app)
            let answer = try await rp.tokens(app, BrowserClient(app.client), decomposedUsername, scope: "openid profile")
            let idToken = try DecodedIDToken(try XCTUnwrap(answer["id_token"] as? String))
            XCTAssertEqual((idToken.claims["preferred_username"] as? String).map { Array($0.unicodeScalars) }, Array(username.unicodeScalars))
            XCTAssertEqual((idToken.claims["name"] as? String).map { Array($0.unicodeScalars) }, Array(name.unicodeScalars))
            let info = try await app.client.send(.get, "/oauth/userinfo", auth: .bearer(try XCTUnwrap(answer["access_token"] as? String)))
            XCTAssertEqual(((try info.jsonObject())["preferred_username"] as? String).map { Array($0.unicodeScalars) }, Array(username.unicodeScalars))
        }
    }

    /// Discovery 1.0 §3: the RFC 8414 document's every field, and OpenID Connect's.
    func testTheOpenIDConfigurationIsTheOAuthMetadataAndOpenIDConnects() async throws {
        try await withTestApp(settings: ["ISSUER": "https://til.example"]) { app in
            let oauth = try await app.client.send(.get, "/.well-known/oauth-authorization-server").jsonObject()
            let response = try await app.client.send(.get, "/.well-known/openid-configuration")
            XCTAssertEqual(response.status.code, 200)
            XCTAssertEqual(response.headers["Content-Type"]?.hasPrefix("application/json"), true)
            let openID = try response.jsonObject()
            for (key, value) in oauth {
                XCTAssertEqual("\(openID[key] ?? "missing")", "\(value)", key)
            }
            XCTAssertEqual(openID["issuer"] as? String, "https://til.example")
            XCTAssertEqual(openID["userinfo_endpoint"] as? String, "https://til.example/oauth/userinfo")
            XCTAssertEqual(openID["jwks_uri"] as? String, "https://til.example/oauth/jwks")
            XCTAssertEqual(openID["end_session_endpoint"] as? String, "https://til.example/oauth/logout")
            XCTAssertEqual(openID["subject_types_supported"] as? [String], ["public"])
            XCTAssertEqual(openID["id_token_signing_alg_values_supported"] as? [String], ["RS256", "ES256"])
            XCTAssertEqual(openID["request_parameter_supported"] as? Bool, false)
            XCTAssertEqual(openID["request_uri_parameter_supported"] as? Bool, false)
            XCTAssertEqual(openID["claims_parameter_supported"] as? Bool, false)
            let claims = try XCTUnwrap(openID["claims_supported"] as? [String])
            XCTAssertTrue(Set(["sub", "iss", "aud", "exp", "iat", "auth_time", "nonce", "name", "preferred_username"]).isSubset(of: claims))
            let scopes = try XCTUnwrap(openID["scopes_supported"] as? [String])
            XCTAssertTrue(Set(["openid", "profile", "offline_access"]).isSubset(of: scopes))
            XCTAssertEqual(openID["response_types_supported"] as? [String], ["code"])
        }
    }
}
