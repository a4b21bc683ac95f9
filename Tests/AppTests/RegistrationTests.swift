import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// RFC 7591 dynamic registration at `POST /oauth/register` (issue 18, "Clients").
final class RegistrationTests: XCTestCase {
    func testAnAdministratorRegistersAConfidentialClientAndSeesEveryFieldOnce() async throws {
        try await withTestApp { app in
            let token = try await app.client.clientsWriteToken()
            let metadata: [String: Any] = [
                "client_name": "Notes ✍️", "redirect_uris": ["https://notes.example/callback", "http://127.0.0.1/cb"],
                "grant_types": ["authorization_code", "refresh_token", "client_credentials"], "scope": "acronyms:write categories:write",
                "post_logout_redirect_uris": ["https://notes.example/bye"], "response_types": ["code"],
                "client_uri": "https://notes.example", "logo_uri": "https://notes.example/logo.png", "software_id": "notes",
            ]
            let response = try await app.client.register(metadata, token: token)
            XCTAssertEqual(response.status.code, 201, response.bodyString)
            XCTAssertEqual(response.headers["Cache-Control"], "no-store")
            let client = try response.jsonObject()
            let id = try XCTUnwrap(client["client_id"] as? String)
            let secret = try XCTUnwrap(client["client_secret"] as? String)
            XCTAssertEqual(secret.count, 43, "256 bits of base64url")
            XCTAssertEqual(client["client_secret_expires_at"] as? Int, 0)
            XCTAssertNotNil(client["client_id_issued_at"] as? Int)
            XCTAssertEqual(client["client_name"] as? String, "Notes ✍️")
            XCTAssertEqual(client["token_endpoint_auth_method"] as? String, "client_secret_basic", "the default")
            XCTAssertEqual(client["redirect_uris"] as? [String], ["https://notes.example/callback", "http://127.0.0.1/cb"])
            XCTAssertEqual(client["grant_types"] as? [String], ["authorization_code", "refresh_token", "client_credentials"])
            XCTAssertEqual(client["response_types"] as? [String], ["code"])
            XCTAssertEqual(client["scope"] as? String, "acronyms:write categories:write")
            XCTAssertEqual(client["post_logout_redirect_uris"] as? [String], ["https://notes.example/bye"])
            XCTAssertNil(client["client_uri"], "unknown metadata is ignored, not stored")
            let stored = try await app.til.db.query("SELECT secret_digest, trusted, registered_by FROM oauth_clients WHERE id = \(id)")
            XCTAssertEqual(try stored.first?.decode(column: "secret_digest", as: String.self), SHA256.hex(of: secret), "only the digest is kept")
            XCTAssertEqual(try stored.first?.decode(column: "trusted", as: Bool.self), false, "never trusted through the API")
        }
    }

    func testAPublicClientGetsNoSecretAndMayUseAPrivateSchemeAndLoopback() async throws {
        try await withTestApp { app in
            let client = try await app.client.registeredClient([
                "token_endpoint_auth_method": "none", "client_name": "Cafe\u{301}",
                "redirect_uris": ["com.example.til:/callback", "http://[::1]/cb", "http://localhost:9/cb"],
            ])
            XCTAssertNil(client["client_secret"])
            XCTAssertNil(client["client_secret_expires_at"])
            XCTAssertEqual(client["client_name"] as? String, "Caf\u{E9}", "stored in NFC")
            XCTAssertEqual(client["scope"] as? String, "acronyms:write categories:write users:write openid profile email offline_access", "the default: no account")
        }
    }

    func testRegistrationNeedsABearerTokenWithClientsWrite() async throws {
        try await withTestApp { app in
            let metadata: [String: Any] = ["redirect_uris": ["https://a.example/cb"]]
            let anonymous = try await app.client.register(metadata, token: nil)
            assertOAuthError(anonymous, 401, "invalid_token", "no token")
            XCTAssertTrue(anonymous.headers["WWW-Authenticate"]?.hasPrefix(#"Bearer realm="TIL""#) == true)
            let ordinary = try await app.client.session("admin").value
            let lacking = try await app.client.register(metadata, token: ordinary)
            assertOAuthError(lacking, 403, "insufficient_scope", "a token without clients:write")
            assertOAuthError(try await app.client.register(metadata, token: "forged"), 401, "invalid_token")
        }
    }

    func testBadMetadataIsRefusedWithTheRFC7591Code() async throws {
        try await withTestApp { app in
            let token = try await app.client.clientsWriteToken()
            let https = ["https://a.example/cb"]
            let refused: [([String: Any], String)] = [
                (["redirect_uris": ["http://a.example/cb"]], "invalid_redirect_uri"),
                (["redirect_uris": ["https://a.example/cb#x"]], "invalid_redirect_uri"),
                (["redirect_uris": ["https://*.example/cb"]], "invalid_redirect_uri"),
                (["redirect_uris": ["com.example.app:/cb"]], "invalid_redirect_uri"),  // confidential
                (["redirect_uris": ["https://a.example/c b"]], "invalid_redirect_uri"),
                (["redirect_uris": ["https://user@a.example/cb"]], "invalid_redirect_uri"),
                (["redirect_uris": ["/relative"]], "invalid_redirect_uri"),
                (["redirect_uris": ["https://a.example/\(String(repeating: "x", count: 600))"]], "invalid_redirect_uri"),
                (["redirect_uris": (0..<11).map { "https://a.example/\($0)" }], "invalid_redirect_uri"),
                (["redirect_uris": [String]()], "invalid_redirect_uri"),
                ([:], "invalid_redirect_uri"),
                (["redirect_uris": "https://a.example/cb"], "invalid_client_metadata"),
                (["redirect_uris": https, "response_types": ["token"]], "invalid_client_metadata"),
                (["redirect_uris": https, "response_types": ["code", "token"]], "invalid_client_metadata"),
                (["redirect_uris": https, "grant_types": ["password"]], "invalid_client_metadata"),
                (["redirect_uris": https, "grant_types": ["implicit"]], "invalid_client_metadata"),
                (["redirect_uris": https, "grant_types": [String]()], "invalid_client_metadata"),
                (["redirect_uris": https, "grant_types": ["refresh_token"]], "invalid_client_metadata"),
                (["redirect_uris": https, "token_endpoint_auth_method": "none", "grant_types": ["client_credentials"]], "invalid_client_metadata"),
                (["redirect_uris": https, "token_endpoint_auth_method": "private_key_jwt"], "invalid_client_metadata"),
                (["redirect_uris": https, "scope": "account"], "invalid_client_metadata"),
                (["redirect_uris": https, "scope": "clients:write"], "invalid_client_metadata"),
                (["redirect_uris": https, "scope": "acronyms:wrіte"], "invalid_client_metadata"),  // Cyrillic і
                (["redirect_uris": https, "scope": "   "], "invalid_client_metadata"),
                (["redirect_uris": https, "client_name": ""], "invalid_client_metadata"),
                (["redirect_uris": https, "client_name": " padded"], "invalid_client_metadata"),
                (["redirect_uris": https, "client_name": "Evil\u{202E}gnp.exe"], "invalid_client_metadata"),
                (["redirect_uris": https, "client_name": "zero\u{200B}width"], "invalid_client_metadata"),
                (["redirect_uris": https, "client_name": "line\nbreak"], "invalid_client_metadata"),
                (["redirect_uris": https, "client_name": String(repeating: "é", count: 101)], "invalid_client_metadata"),
                (["redirect_uris": https, "client_name": 42], "invalid_client_metadata"),
                (["redirect_uris": https, "post_logout_redirect_uris": ["http://a.example/bye"]], "invalid_client_metadata"),
            ]
            for (metadata, code) in refused {
                assertOAuthError(try await app.client.register(metadata, token: token), 400, code, "\(metadata)")
            }
            let notJSON = try await app.client.send(
                .post, "/oauth/register", headers: ["Content-Type": "text/plain"], body: Array("{}".utf8), auth: .bearer(token))
            assertOAuthError(notJSON, 415, "invalid_client_metadata", "text/plain")
            let broken = try await app.client.send(
                .post, "/oauth/register", headers: ["Content-Type": "application/json"], body: Array("{\"redirect_uris\": [".utf8),
                auth: .bearer(token))
            assertOAuthError(broken, 400, "invalid_client_metadata", "truncated JSON")
            let count = try await app.til.db.query("SELECT count(*)::int AS n FROM oauth_clients WHERE id <> 'til-cli'").first?.decode(column: "n", as: Int.self)
            XCTAssertEqual(count, 0, "nothing refused was stored")
        }
    }

    func testOpenRegistrationMakesUntrustedPublicClientsThrottledPerAddress() async throws {
        try await withTestApp(settings: ["OAUTH_REGISTRATION": "open"]) { app in
            let metadata: [String: Any] = ["redirect_uris": ["http://127.0.0.1/callback"], "client_name": "Agent"]
            let first = try await app.client.register(metadata, token: nil)
            XCTAssertEqual(first.status.code, 201, first.bodyString)
            let client = try first.jsonObject()
            XCTAssertEqual(client["token_endpoint_auth_method"] as? String, "none", "omitted means none")
            XCTAssertNil(client["client_secret"])
            var confidential = metadata
            confidential["token_endpoint_auth_method"] = "client_secret_basic"
            assertOAuthError(try await app.client.register(confidential, token: nil), 400, "invalid_client_metadata", "confidential")
            for _ in 1..<RegistrationController.openLimitPerHour {
                let response = try await app.client.register(metadata, token: nil)
                XCTAssertEqual(response.status.code, 201, response.bodyString)
            }
            let throttled = try await app.client.register(metadata, token: nil)
            assertOAuthError(throttled, 429, "temporarily_unavailable", "over the hourly limit")
            XCTAssertNotNil(throttled.headers["Retry-After"])
            let admin = try await app.client.register(confidential, token: try await app.client.clientsWriteToken())
            XCTAssertEqual(admin.status.code, 201, "an administrator's token still registers by the admin rules: \(admin.bodyString)")
            XCTAssertNotNil(try admin.jsonObject()["client_secret"])
            let trusted = try await app.til.db.query("SELECT count(*)::int AS n FROM oauth_clients WHERE trusted AND id <> 'til-cli'").first?.decode(column: "n", as: Int.self)
            XCTAssertEqual(trusted, 0)
        }
    }
}
