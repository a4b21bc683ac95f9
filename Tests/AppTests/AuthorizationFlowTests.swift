import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// `/oauth/authorize` end to end, as a browser walks it: the sign-in form, the consent page,
/// the redirect with `code`, `state` and `iss`, and the code's row as the token endpoint will
/// read it.
final class AuthorizationFlowTests: XCTestCase {
    /// An authorization request's target for `client`, with the usual parameters and `extra`.
    static func authorize(
        _ client: StoredClient, _ pkce: PKCEPair, scope: String? = "acronyms:write", state: String? = "xyz",
        _ extra: [(name: String, value: String)] = []
    ) -> String {
        var pairs: [(name: String, value: String)] = [
            ("response_type", "code"), ("client_id", client.id), ("redirect_uri", client.redirectURIs[0]),
            ("code_challenge", pkce.challenge), ("code_challenge_method", "S256"),
        ]
        if let scope { pairs.append(("scope", scope)) }
        if let state { pairs.append(("state", state)) }
        return "/oauth/authorize?" + QueryEncoding.encode(pairs + extra)
    }

    /// The issuer the in-process test app answers with.
    static func issuer(_ app: TestApp) async throws -> String {
        let metadata = try await app.client.send(.get, "/.well-known/oauth-authorization-server")
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(metadata.body)) as? [String: Any])["issuer"] as! String
    }

    func testAThirdPartyClientSignsInAsksConsentAndGetsACodeBoundToTheRequest() async throws {
        try await withTestApp { app in
            let user = try await User.create(username: "ahsoka", on: app)
            let client = try await StoredClient.create(name: #"Notes <b>"Pro"</b> & Co"#, on: app)
            let pkce = PKCEPair()
            let browser = BrowserClient(app.client)
            let state = "s t&a=te/ü"
            let target = Self.authorize(client, pkce, scope: "categories:write acronyms:write", state: state)
            // 1. No session: the sign-in form, naming the client, escaped.
            let loginPage = try await browser.get(target)
            XCTAssertEqual(loginPage.status, .ok)
            loginPage.assertPageHeaders()
            XCTAssertTrue(loginPage.bodyString.contains("Notes &lt;b&gt;&quot;Pro&quot;&lt;/b&gt; &amp; Co"), loginPage.bodyString)
            XCTAssertFalse(loginPage.bodyString.contains("<b>\"Pro\""))
            XCTAssertTrue(loginPage.headers["Content-Security-Policy"]!.contains("form-action 'self' https://app.example;"))
            let loginForm = try HTMLForm.only(in: loginPage)
            XCTAssertEqual(loginForm.action, "/login")
            XCTAssertEqual(Set(loginForm.fields.map(\.name)), ["csrf_token", "return_to", "username", "password"])
            // A wrong password: the form again, still for this client, its CSP still reaching it.
            let wrong = try await browser.submit(loginForm, ["username": "ahsoka", "password": "wrong-password"])
            XCTAssertEqual(wrong.status, .unauthorized)
            XCTAssertTrue(wrong.bodyString.contains("Notes &lt;b&gt;&quot;Pro&quot;&lt;/b&gt; &amp; Co"))
            XCTAssertTrue(wrong.headers["Content-Security-Policy"]!.contains("form-action 'self' https://app.example;"))
            XCTAssertEqual(try HTMLForm.only(in: wrong).value("return_to"), loginForm.value("return_to"))
            // 2. Signed in: back to the request.
            let signedIn = try await browser.submit(loginForm, ["username": "ahsoka", "password": "password"])
            XCTAssertEqual(signedIn.status, .seeOther)
            let back = try XCTUnwrap(signedIn.location)
            XCTAssertTrue(back.hasPrefix("/oauth/authorize?"), back)
            // 3. The consent page: the client, each scope in words, approve and deny.
            let consent = try await browser.get(back)
            XCTAssertEqual(consent.status, .ok)
            consent.assertPageHeaders()
            XCTAssertTrue(consent.headers["Content-Security-Policy"]!.contains("https://app.example"))
            let html = consent.bodyString
            XCTAssertTrue(html.contains("Notes &lt;b&gt;&quot;Pro&quot;&lt;/b&gt; &amp; Co"))
            XCTAssertTrue(html.contains("ahsoka"))
            XCTAssertTrue(html.contains("Create categories"), html)
            XCTAssertTrue(html.contains("Create, change and delete acronyms"), html)
            let consentForm = try HTMLForm.only(in: consent)
            XCTAssertEqual(consentForm.action, "/oauth/consent")
            XCTAssertEqual(consentForm.buttons.map(\.name), ["decision", "decision"])
            XCTAssertEqual(consentForm.buttons.map(\.value), ["approve", "deny"])
            XCTAssertEqual(consentForm.value("state"), state, "the request rides along unchanged")
            // 4. Approve: 303 to the client with code, state and iss.
            let approved = try await browser.submit(consentForm, clicking: ("decision", "approve"))
            XCTAssertEqual(approved.status, .seeOther)
            approved.assertNoStore()
            let location = try XCTUnwrap(approved.location)
            XCTAssertTrue(location.hasPrefix("https://app.example/callback?"), location)
            let query = try approved.redirectQuery()
            XCTAssertEqual(Set(query.keys), ["code", "state", "iss"])
            XCTAssertEqual(query["state"], state)
            let issuer = try await Self.issuer(app)
            XCTAssertEqual(query["iss"], issuer)
            let code = try XCTUnwrap(query["code"])
            XCTAssertEqual(Base64URL.decode(code)?.count, 32, "256 bits")
            // The code's row: by digest, bound to everything.
            let rows = try await app.til.db.query("""
                SELECT c.*, extract(epoch FROM c.expires_at - now()) AS ttl, s.created_at AS login_time
                FROM oauth_codes c JOIN sessions s ON s.user_id = c.user_id AND s.kind = 'browser'
                """)
            XCTAssertEqual(rows.count, 1)
            let row = rows[0]
            XCTAssertEqual(try row.decode(column: "digest", as: String.self), SHA256.hex(of: code))
            XCTAssertEqual(try row.decode(column: "client_id", as: String.self), client.id)
            XCTAssertEqual(try row.decode(column: "user_id", as: UUID.self), user.id)
            XCTAssertEqual(try row.decode(column: "redirect_uri", as: String.self), "https://app.example/callback")
            XCTAssertTrue(try row.decode(column: "redirect_uri_sent", as: Bool.self))
            XCTAssertEqual(try row.decode(column: "code_challenge", as: String.self), pkce.challenge)
            XCTAssertEqual(try row.decode(column: "scopes", as: String.self), "acronyms:write categories:write")
            XCTAssertEqual(try row.decode(column: "resources", as: String.self), "")
            XCTAssertEqual(try row.decode(column: "auth_time", as: Date.self), try row.decode(column: "login_time", as: Date.self))
            XCTAssertNil(try row.decode(column: "redeemed_at", as: Date?.self))
            let ttl = try row.decode(column: "ttl", as: Double.self)
            XCTAssertTrue(ttl > 50 && ttl <= 60, "AUTH_CODE_TTL 60 s: \(ttl)")
            // The consent is remembered: the same request again goes straight to a new code.
            let again = try await browser.get(Self.authorize(client, PKCEPair(), scope: "acronyms:write"))
            XCTAssertEqual(again.status, .seeOther)
            XCTAssertNotNil(try again.redirectQuery()["code"])
            let grants = try await app.til.db.query("SELECT scopes FROM oauth_grants WHERE user_id = \(user.id) AND client_id = \(client.id)")
            XCTAssertEqual(try grants[0].decode(column: "scopes", as: String.self), "acronyms:write categories:write")
        }
    }

    func testATrustedClientSkipsConsentAndAnOmittedRedirectURIIsTheRegisteredOne() async throws {
        try await withTestApp(settings: ["AUTH_CODE_TTL": "30"]) { app in
            _ = try await User.create(username: "kanan", on: app)
            let client = try await StoredClient.create(
                redirectURIs: ["com.example.til:/callback"], scope: ["acronyms:write", "account"], trusted: true, on: app)
            let browser = BrowserClient(app.client)
            let pairs: [(name: String, value: String)] = [
                ("response_type", "code"), ("client_id", client.id), ("code_challenge", PKCEPair().challenge),
                ("code_challenge_method", "S256"), ("scope", "account acronyms:write"), ("resource", "\(try await Self.issuer(app))/api"),
            ]
            let page = try await browser.get("/oauth/authorize?" + QueryEncoding.encode(pairs))
            XCTAssertTrue(page.headers["Content-Security-Policy"]!.contains("form-action 'self' com.example.til:;"))
            let signedIn = try await browser.submit(try HTMLForm.only(in: page), ["username": "kanan", "password": "password"])
            let answer = try await browser.get(try XCTUnwrap(signedIn.location))
            XCTAssertEqual(answer.status, .seeOther)
            XCTAssertTrue(answer.location!.hasPrefix("com.example.til:/callback?code="), answer.location!)
            XCTAssertNil(try answer.redirectQuery()["state"], "no state sent, none echoed")
            let row = try await app.til.db.query("""
                SELECT redirect_uri, redirect_uri_sent, scopes, resources, extract(epoch FROM expires_at - now()) AS ttl FROM oauth_codes
                """)[0]
            XCTAssertEqual(try row.decode(column: "redirect_uri", as: String.self), "com.example.til:/callback")
            XCTAssertFalse(try row.decode(column: "redirect_uri_sent", as: Bool.self))
            XCTAssertEqual(try row.decode(column: "scopes", as: String.self), "acronyms:write account")
            let issuer = try await Self.issuer(app)
            XCTAssertEqual(try row.decode(column: "resources", as: String.self), "\(issuer)/api")
            XCTAssertLessThanOrEqual(try row.decode(column: "ttl", as: Double.self), 30)
            let consents = try await app.til.db.query("SELECT count(*) AS n FROM oauth_grants")
            XCTAssertEqual(try consents[0].decode(column: "n", as: Int64.self), 0, "no consent asked or stored")
        }
    }

    func testAPostedAuthorizationRequestIsTheSameAsAGetAndLoopbackAcceptsAnyPort() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "hera", on: app)
            let client = try await StoredClient.create(redirectURIs: ["http://127.0.0.1/cb"], trusted: true, on: app)
            let browser = BrowserClient(app.client)
            try await browser.signIn("hera")
            let target = Self.authorize(client, PKCEPair(), state: "p", [("redirect_uri", "http://127.0.0.1:53170/cb")])
                .replacingOccurrences(of: "redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&", with: "")
            let query = String(target.split(separator: "?", maxSplits: 1)[1])
            let posted = try await browser.send(.post, "/oauth/authorize", body: Array(query.utf8), contentType: "application/x-www-form-urlencoded")
            XCTAssertEqual(posted.status, .seeOther)
            XCTAssertTrue(posted.location!.hasPrefix("http://127.0.0.1:53170/cb?code="), posted.location!)
            XCTAssertEqual(try posted.redirectQuery()["state"], "p")
            let fetched = try await browser.get(target)
            XCTAssertEqual(fetched.status, .seeOther)
            XCTAssertTrue(fetched.location!.hasPrefix("http://127.0.0.1:53170/cb?code="))
            let json = try await browser.send(.post, "/oauth/authorize", body: Array("{}".utf8), contentType: "application/json")
            XCTAssertEqual(json.status, .badRequest)
            XCTAssertNil(json.location)
        }
    }

    /// The contract with the token endpoint, end to end: a client registered through the API,
    /// a code from the pages, redeemed with its verifier for a token that works, once.
    func testACodeFromThePagesIsRedeemedAtTheTokenEndpoint() async throws {
        try await withTestApp { app in
            let user = try await User.create(username: "bo-katan", on: app)
            let registered = try await app.oauthClient(["token_endpoint_auth_method": "none", "grant_types": ["authorization_code", "refresh_token"]])
            let client = StoredClient(id: registered.id, redirectURIs: ["https://app.example/cb"])
            let pkce = PKCEPair()
            let browser = BrowserClient(app.client)
            try await browser.signIn("bo-katan")
            let consent = try await browser.get(Self.authorize(client, pkce, scope: "acronyms:write"))
            let approved = try await browser.submit(try HTMLForm.only(in: consent), clicking: ("decision", "approve"))
            let code = try XCTUnwrap(try approved.redirectQuery()["code"])
            let redeem: [(String, String)] = [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", "https://app.example/cb"),
                ("code_verifier", pkce.verifier), ("client_id", client.id),
            ]
            let token = try await app.client.postForm("/oauth/token", redeem)
            XCTAssertEqual(token.status, .ok, token.bodyString)
            let answer = try token.jsonObject()
            XCTAssertEqual(answer["scope"] as? String, "acronyms:write")
            let access = try XCTUnwrap(answer["access_token"] as? String)
            let me = try await app.client.send(.get, "/api/users/me", auth: .bearer(access))
            XCTAssertEqual(me.status, .ok)
            XCTAssertEqual(try me.jsonObject()["id"] as? String, user.id.uuidString)
            let again = try await app.client.postForm("/oauth/token", redeem)
            assertOAuthError(again, 400, "invalid_grant", "a code is single use")
        }
    }
}
