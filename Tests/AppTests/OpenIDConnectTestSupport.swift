import AppTesting
import Crypt
import Foundation
import JOSE
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// What the OpenID Connect tests share: a relying party stored as a client, a sign-in walked
/// through the pages to a code, its redemption, and an ID token's parts read back.
struct RelyingParty {
    let client: StoredClient
    /// nil: public (PKCE and `client_id` only).
    let secret: String?
    static let postLogoutURI = "https://rp.example/signed-out"

    /// A client registered through the API (as the admin) for the code flow with OpenID
    /// Connect's scopes; `metadata` over the defaults.
    static func register(
        on app: TestApp, _ metadata: [String: Any] = [:], file: StaticString = #filePath, line: UInt = #line
    ) async throws -> RelyingParty {
        let base: [String: Any] = [
            "client_name": "Relying Party", "redirect_uris": ["https://rp.example/cb"], "token_endpoint_auth_method": "client_secret_basic",
            "grant_types": ["authorization_code"], "scope": "openid profile email offline_access acronyms:write",
            "post_logout_redirect_uris": [postLogoutURI],
        ]
        let answer = try await app.client.registeredClient(base.merging(metadata) { $1 }, file: file, line: line)
        let id = try XCTUnwrap(answer["client_id"] as? String, file: file, line: line)
        let uris = try XCTUnwrap(answer["redirect_uris"] as? [String], file: file, line: line)
        return RelyingParty(client: StoredClient(id: id, redirectURIs: uris), secret: answer["client_secret"] as? String)
    }

    var auth: TestAuth? { secret.map { .basic(client.id, $0) } }

    /// The authorization request's target.
    func authorize(
        _ pkce: PKCEPair, scope: String = "openid profile", nonce: String? = "n-0S6_WzA2Mj", state: String? = "af0ifjsldkj",
        _ extra: [(name: String, value: String)] = []
    ) -> String {
        AuthorizationFlowTests.authorize(client, pkce, scope: scope, state: state, (nonce.map { [("nonce", $0)] } ?? []) + extra)
    }

    /// The token request for `code`.
    func redeem(_ http: TestClient, code: String, pkce: PKCEPair) async throws -> TestResponse {
        var fields = [("grant_type", "authorization_code"), ("code", code), ("code_verifier", pkce.verifier), ("redirect_uri", client.redirectURIs[0])]
        if secret == nil { fields.append(("client_id", client.id)) }
        return try await http.postForm("/oauth/token", fields, auth: auth)
    }

    /// Signs `username` in through the pages (consent approved when asked) for `target`; the
    /// redirect's query (with `code`).
    func signIn(_ browser: BrowserClient, _ username: String, target: String, file: StaticString = #filePath, line: UInt = #line)
        async throws -> [String: String]
    {
        var response = try await browser.get(target)
        if let form = HTMLForm.all(in: response.bodyString).first, form.action == "/login" {
            response = try await browser.submit(form, ["username": username, "password": "password"])
            XCTAssertEqual(response.status, .seeOther, response.bodyString, file: file, line: line)
            response = try await browser.get(try XCTUnwrap(response.location, file: file, line: line))
        }
        if let form = HTMLForm.all(in: response.bodyString).first, form.action == "/oauth/consent" {
            response = try await browser.submit(form, clicking: ("decision", "approve"))
        }
        XCTAssertEqual(response.status, .seeOther, response.bodyString, file: file, line: line)
        return try response.redirectQuery(file: file, line: line)
    }

    /// A whole sign-in and redemption: the token answer.
    func tokens(
        _ app: TestApp, _ browser: BrowserClient, _ username: String, scope: String = "openid profile", nonce: String? = "n-0S6_WzA2Mj",
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> [String: Any] {
        let pkce = PKCEPair()
        let query = try await signIn(browser, username, target: authorize(pkce, scope: scope, nonce: nonce), file: file, line: line)
        let code = try XCTUnwrap(query["code"], "\(query)", file: file, line: line)
        let answer = try await redeem(app.client, code: code, pkce: pkce)
        XCTAssertEqual(answer.status.code, 200, answer.bodyString, file: file, line: line)
        return try answer.jsonObject()
    }
}

extension RelyingParty {
    /// The access token of a whole sign-in.
    func accessToken(
        _ app: TestApp, _ browser: BrowserClient, _ username: String, scope: String, nonce: String? = "n",
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> String {
        let answer = try await tokens(app, browser, username, scope: scope, nonce: nonce, file: file, line: line)
        return try XCTUnwrap(answer["access_token"] as? String, file: file, line: line)
    }
}

/// An ID token's header and claims, read without checking its signature (the tests that check
/// it verify against the published keys).
struct DecodedIDToken {
    let header: [String: Any]
    let claims: [String: Any]

    init(_ compact: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(parts.count, 3, "a compact JWS", file: file, line: line)
        func object(_ part: String) throws -> [String: Any] {
            let bytes = try XCTUnwrap(Base64URL.decode(part), "base64url", file: file, line: line)
            return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any], file: file, line: line)
        }
        header = try object(parts[0])
        claims = try object(parts[1])
    }

    /// Verifies `compact` against the JWK Set `http` serves at `jwks_uri` (as a relying party
    /// does), then reads it; fails the test when the signature does not hold.
    static func verified(_ compact: String, against http: TestClient, file: StaticString = #filePath, line: UInt = #line)
        async throws -> DecodedIDToken
    {
        let published = try await http.send(.get, OpenIDEndpoints.jwks)
        XCTAssertEqual(published.status.code, 200, published.bodyString, file: file, line: line)
        let keys = try JSONDecoder().decode(JWKSet.self, from: Data(published.body))
        XCTAssertNoThrow(try JWS.verify(compact, keys: keys, allowed: Set(JWSAlgorithm.allCases)), "the signature", file: file, line: line)
        return try DecodedIDToken(compact, file: file, line: line)
    }

    var sub: String? { claims["sub"] as? String }
    var authTime: Int? { claims["auth_time"] as? Int }
}

extension TestApp {
    /// The live browser session's row of `username`, its `created_at` moved `seconds` back: a
    /// sign-in that long ago, without waiting.
    func ageBrowserSessions(of username: String, by seconds: Int) async throws {
        try await til.db.execute("""
            UPDATE sessions SET created_at = created_at - \(seconds) * interval '1 second', auth_time = auth_time - \(seconds) * interval '1 second'
            WHERE kind = 'browser' AND user_id = (SELECT id FROM users WHERE username = \(username))
            """)
    }
}
