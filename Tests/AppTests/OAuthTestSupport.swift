import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// What the OAuth tests share: registering clients, reading RFC 6749 §5.2 errors, and sending
/// form-encoded bodies as OAuth clients do.
extension TestClient {
    /// `POST /oauth/register` with `metadata` as JSON, as the admin (a `clients:write` token)
    /// unless `token` says otherwise (nil: no token).
    func register(_ metadata: [String: Any], token: String?) async throws -> TestResponse {
        let body = Array(try JSONSerialization.data(withJSONObject: metadata))
        return try await send(
            .post, "/oauth/register", headers: ["Content-Type": "application/json"], body: body, auth: token.map { .bearer($0) })
    }

    /// A `clients:write` token of the seeded admin.
    func clientsWriteToken() async throws -> String {
        try await session("admin", scope: "clients:write").value
    }

    /// Registers a client as the admin, failing the test unless 201; its answer.
    func registeredClient(_ metadata: [String: Any], file: StaticString = #filePath, line: UInt = #line) async throws -> [String: Any] {
        let response = try await register(metadata, token: try await clientsWriteToken())
        XCTAssertEqual(response.status.code, 201, response.bodyString, file: file, line: line)
        return try response.jsonObject()
    }

    /// `POST path` with `fields` form-encoded (each name and value percent-encoded).
    func postForm(_ path: String, _ fields: [(String, String)], headers: HTTPHeaders = [:], auth: TestAuth? = nil) async throws -> TestResponse {
        var headers = headers
        headers.replaceOrAdd(name: "Content-Type", value: "application/x-www-form-urlencoded")
        let body = fields.map { "\(formEncoded($0.0))=\(formEncoded($0.1))" }.joined(separator: "&")
        return try await send(.post, path, headers: headers, body: Array(body.utf8), auth: auth)
    }
}

/// `text` percent-encoded for a form body: only unreserved characters stay as they are.
func formEncoded(_ text: String) -> String {
    var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
    allowed.insert(charactersIn: "-._~")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
}

extension TestResponse {
    /// The body as a JSON object.
    func jsonObject(file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any], bodyString, file: file, line: line)
    }
}

/// Asserts an RFC 6749 §5.2 error: the status, exactly `error` and `error_description` (no
/// TIL-style `reason`), and no caching.
func assertOAuthError(
    _ response: TestResponse, _ status: Int, _ code: String, _ message: String = "", file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertEqual(response.status.code, status, "\(message): \(response.bodyString)", file: file, line: line)
    guard let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] else {
        return XCTFail("\(message): not a JSON object: \(response.bodyString)", file: file, line: line)
    }
    XCTAssertEqual(object["error"] as? String, code, "\(message): \(response.bodyString)", file: file, line: line)
    XCTAssertEqual(Set(object.keys).subtracting(["error", "error_description"]), [], "\(message)", file: file, line: line)
    XCTAssertEqual(response.headers["Cache-Control"], "no-store", "\(message)", file: file, line: line)
}

/// A registered client as the tests use it: its id and secret (nil for a public client).
struct TestOAuthClient: Sendable {
    let id: String
    let secret: String?

    /// Client authentication as `client_secret_basic` does it (nil for a public client).
    var basic: TestAuth? { secret.map { .basic(id, $0) } }
}

extension TestApp {
    /// Registers a client through the API (as the admin); `metadata` over a confidential
    /// client of every grant with `https://app.example/cb` and TIL's third-party scopes.
    func oauthClient(_ metadata: [String: Any] = [:], file: StaticString = #filePath, line: UInt = #line) async throws -> TestOAuthClient {
        let base: [String: Any] = [
            "client_name": "Test app", "redirect_uris": ["https://app.example/cb"],
            "grant_types": ["authorization_code", "refresh_token", "client_credentials"],
            "scope": "acronyms:write categories:write users:write",
        ]
        let answer = try await client.registeredClient(base.merging(metadata) { $1 }, file: file, line: line)
        return TestOAuthClient(id: try XCTUnwrap(answer["client_id"] as? String), secret: answer["client_secret"] as? String)
    }

    /// Stores an authorization code as the authorization pages do (the `oauth_codes` contract of
    /// issue 18): its digest, bound to the client, user, redirect URI, PKCE challenge, scopes and
    /// resources, living `ttl` seconds. The code itself, to redeem.
    func insertAuthorizationCode(
        client: TestOAuthClient, user: UUID, redirectURI: String = "https://app.example/cb", redirectURISent: Bool = true,
        verifier: String, scopes: String = "acronyms:write categories:write", resources: String = "", ttl: Int = 60
    ) async throws -> String {
        let code = SecureRandom.token()
        try await til.db.execute("""
            INSERT INTO oauth_codes (digest, client_id, user_id, redirect_uri, redirect_uri_sent, code_challenge, scopes,
                                     resources, auth_time, expires_at)
            VALUES (\(SHA256.hex(of: code)), \(client.id), \(user), \(redirectURI), \(redirectURISent), \(PKCE.challenge(of: verifier)),
                    \(scopes), \(resources), now(), now() + \(ttl) * interval '1 second')
            """)
        return code
    }

    /// The admin's (or `user`'s) remembered consent to `registered` (`acronyms:write`), and an
    /// access token redeemed from a code under it: a grant to withdraw, with a token the
    /// withdrawal ends.
    func grantedAccessToken(for registered: TestOAuthClient, user: UUID? = nil) async throws -> String {
        let admin: UUID
        if let user { admin = user } else { admin = try await adminID() }
        try await til.db.execute(
            "INSERT INTO oauth_grants (user_id, client_id, scopes) VALUES (\(admin), \(registered.id), 'acronyms:write')")
        let verifier = pkceVerifier()
        let code = try await insertAuthorizationCode(client: registered, user: admin, verifier: verifier)
        let answer = try await AuthorizationCodeGrantTests.redeem(client, registered, code: code, verifier: verifier).jsonObject()
        return try XCTUnwrap(answer["access_token"] as? String)
    }

    /// The seeded admin's id.
    func adminID() async throws -> UUID {
        let rows = try await til.db.query("SELECT id FROM users WHERE username = 'admin'")
        return try XCTUnwrap(try rows.first?.decode(column: "id", as: UUID.self))
    }
}

/// A fresh PKCE verifier (43 characters of base64url).
func pkceVerifier() -> String { SecureRandom.token() }
