import AppTesting
import Foundation
import Web
import WebTesting
import XCTest
@testable import App

/// RFC 8414 and RFC 9728 discovery (issue 18), and `resource_metadata` on every Bearer challenge.
final class DiscoveryTests: XCTestCase {
    private func object(_ response: TestResponse) throws -> [String: Any] {
        XCTAssertEqual(response.status.code, 200, response.bodyString)
        XCTAssertEqual(response.headers["Content-Type"]?.hasPrefix("application/json"), true)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    func testTheAuthorizationServerMetadataNamesEveryEndpointUnderTheIssuer() async throws {
        let settings = ["ISSUER": "https://til.example", "RESOURCES": "https://notes.example=notes:read notes:write"]
        try await withTestApp(settings: settings) { app in
            let metadata = try object(try await app.client.send(.get, "/.well-known/oauth-authorization-server"))
            XCTAssertEqual(metadata["issuer"] as? String, "https://til.example")
            XCTAssertEqual(metadata["authorization_endpoint"] as? String, "https://til.example/oauth/authorize")
            XCTAssertEqual(metadata["token_endpoint"] as? String, "https://til.example/oauth/token")
            XCTAssertEqual(metadata["registration_endpoint"] as? String, "https://til.example/oauth/register")
            XCTAssertEqual(metadata["revocation_endpoint"] as? String, "https://til.example/oauth/revoke")
            XCTAssertEqual(metadata["introspection_endpoint"] as? String, "https://til.example/oauth/introspect")
            XCTAssertEqual(metadata["response_types_supported"] as? [String], ["code"])
            XCTAssertEqual(metadata["response_modes_supported"] as? [String], ["query"])
            XCTAssertEqual(
                metadata["grant_types_supported"] as? [String],
                ["authorization_code", "refresh_token", "client_credentials", "urn:ietf:params:oauth:grant-type:device_code"])
            XCTAssertEqual(metadata["device_authorization_endpoint"] as? String, "https://til.example/oauth/device_authorization")
            XCTAssertEqual(metadata["code_challenge_methods_supported"] as? [String], ["S256"], "never plain")
            let methods = ["none", "client_secret_basic", "client_secret_post"]
            XCTAssertEqual(metadata["token_endpoint_auth_methods_supported"] as? [String], methods)
            XCTAssertEqual(metadata["revocation_endpoint_auth_methods_supported"] as? [String], methods)
            XCTAssertEqual(metadata["introspection_endpoint_auth_methods_supported"] as? [String], ["client_secret_basic", "client_secret_post"])
            XCTAssertEqual(
                metadata["scopes_supported"] as? [String],
                ["acronyms:write", "categories:write", "users:write", "account", "clients:write", "openid", "profile", "email", "offline_access",
                 "notes:read", "notes:write"])
            XCTAssertEqual(metadata["authorization_response_iss_parameter_supported"] as? Bool, true)
            XCTAssertEqual(metadata["service_documentation"] as? String, "https://til.example/openapi.json")
        }
    }

    func testTheAPIsProtectedResourceMetadataAnswersAtBothPaths() async throws {
        try await withTestApp(settings: ["ISSUER": "https://til.example/base"]) { app in
            for path in ["/.well-known/oauth-protected-resource/api", "/.well-known/oauth-protected-resource"] {
                let metadata = try object(try await app.client.send(.get, path))
                XCTAssertEqual(metadata["resource"] as? String, "https://til.example/base/api", path)
                XCTAssertEqual(metadata["authorization_servers"] as? [String], ["https://til.example/base"])
                XCTAssertEqual(metadata["bearer_methods_supported"] as? [String], ["header"])
                XCTAssertEqual(metadata["scopes_supported"] as? [String], ["acronyms:write", "categories:write", "users:write", "account", "clients:write"])
            }
        }
    }

    /// Without `ISSUER`, a live test server on a kernel-picked port names that very port.
    func testWithoutAnIssuerTheServedLoopbackAddressAndBoundPortAreTheIssuer() async throws {
        try await withTestApp(.live) { app in
            let metadata = try object(try await app.client.send(.get, "/.well-known/oauth-authorization-server"))
            XCTAssertEqual(metadata["issuer"] as? String, "http://127.0.0.1:\(app.app.boundPort)")
            XCTAssertEqual(metadata["token_endpoint"] as? String, "http://127.0.0.1:\(app.app.boundPort)/oauth/token")
        }
    }

    /// RFC 9728 §5.1: the 401 without a token, the 401 with a bad one, and the 403 without the
    /// scope all point at the metadata, beside what they said before.
    func testEveryBearerChallengeNamesTheResourceMetadata() async throws {
        try await withTestApp(settings: ["ISSUER": "https://til.example"]) { app in
            let expected = #"resource_metadata="https://til.example/.well-known/oauth-protected-resource/api""#
            let missing = try await app.client.send(.get, "/api/users/me")
            XCTAssertEqual(missing.status.code, 401)
            XCTAssertEqual(missing.headers["WWW-Authenticate"], #"Bearer realm="TIL", "# + expected)
            let unknown = try await app.client.send(.get, "/api/users/me", auth: .bearer("no-such-token"))
            assertInvalidToken(unknown)
            XCTAssertTrue(unknown.headers["WWW-Authenticate"]?.hasSuffix(", " + expected) == true, unknown.headers["WWW-Authenticate"] ?? "")
            let session = try await app.client.session("admin", scope: "acronyms:write")
            let writeWithoutScope = try await app.client.send(.post, "/api/categories", json: ["name": "x"], auth: .bearer(session.value))
            XCTAssertEqual(writeWithoutScope.status.code, 403)
            let challenge = writeWithoutScope.headers["WWW-Authenticate"] ?? ""
            XCTAssertTrue(challenge.contains(#"error="insufficient_scope""#) && challenge.hasSuffix(", " + expected), challenge)
            let readWithoutScope = try await app.client.send(.get, "/api/users/me/sessions", auth: .bearer(session.value))
            XCTAssertEqual(readWithoutScope.status.code, 403)
            XCTAssertTrue(readWithoutScope.headers["WWW-Authenticate"]?.hasSuffix(", " + expected) == true)
            // A login's Basic challenge is not the API's bearer challenge: left alone.
            let badLogin = try await app.client.login("admin", "wrong-password")
            XCTAssertFalse(badLogin.headers["WWW-Authenticate"]?.contains("resource_metadata") ?? false)
        }
    }
}
