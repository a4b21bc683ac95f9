import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// OpenID Connect Core §3.1.2 at TIL's authorization endpoint: `openid` and its ID token
/// (§2, §3.1.3.3), `nonce`, `prompt`, `max_age`, and request objects refused (§6).
final class OpenIDAuthorizationTests: XCTestCase {
    func testACodeOfOpenIDBuysAnIDTokenWithEveryClaimOfTheSignIn() async throws {
        try await withTestApp(settings: ["ISSUER": "https://til.example"]) { app in
            let user = try await User.create(name: "Ahsoka Tano", username: "ahsoka", on: app)
            let rp = try await RelyingParty.register(on: app)
            let browser = BrowserClient(app.client)
            let before = Int(Date().timeIntervalSince1970)
            let answer = try await rp.tokens(app, browser, "ahsoka", scope: "openid profile acronyms:write", nonce: "n-0S6_WzA2Mj")
            XCTAssertEqual(answer["scope"] as? String, "acronyms:write openid profile")
            XCTAssertNil(answer["refresh_token"], "neither offline_access nor the refresh_token grant")
            let access = try XCTUnwrap(answer["access_token"] as? String)
            let token = try await DecodedIDToken.verified(try XCTUnwrap(answer["id_token"] as? String), against: app.client)
            XCTAssertEqual(token.header["alg"] as? String, "RS256", "the default")
            XCTAssertEqual(token.header["typ"] as? String, "JWT")
            XCTAssertNotNil(token.header["kid"])
            let claims = token.claims
            XCTAssertEqual(claims["iss"] as? String, "https://til.example")
            XCTAssertEqual(claims["sub"] as? String, user.id.uuidString.lowercased())
            XCTAssertEqual(claims["aud"] as? String, rp.client.id)
            XCTAssertEqual(claims["azp"] as? String, rp.client.id)
            XCTAssertEqual(claims["nonce"] as? String, "n-0S6_WzA2Mj")
            XCTAssertEqual(claims["name"] as? String, "Ahsoka Tano")
            XCTAssertEqual(claims["preferred_username"] as? String, "ahsoka")
            let iat = try XCTUnwrap(claims["iat"] as? Int), exp = try XCTUnwrap(claims["exp"] as? Int)
            XCTAssertEqual(exp - iat, Int(app.til.configuration.auth.tokenTTL.seconds), "as long as the access token")
            XCTAssertGreaterThanOrEqual(iat, before)
            let authTime = try XCTUnwrap(token.authTime)
            XCTAssertTrue((before - 1...iat).contains(authTime), "the sign-in just made: \(authTime) vs \(before)...\(iat)")
            XCTAssertEqual(claims["at_hash"] as? String, Base64URL.encode(Array(SHA256.hash(Array(access.utf8)).prefix(16))))
            XCTAssertEqual(Set(claims.keys), ["iss", "sub", "aud", "azp", "exp", "iat", "auth_time", "nonce", "at_hash", "name", "preferred_username"])

            // Without profile: no profile claims; without openid: no ID token at all.
            let plain = try await rp.tokens(app, browser, "ahsoka", scope: "openid", nonce: "second")
            let bare = try DecodedIDToken(try XCTUnwrap(plain["id_token"] as? String))
            XCTAssertNil(bare.claims["name"])
            XCTAssertNil(bare.claims["preferred_username"])
            XCTAssertEqual(bare.claims["nonce"] as? String, "second")
            let oauthOnly = try await rp.tokens(app, browser, "ahsoka", scope: "acronyms:write", nonce: nil)
            XCTAssertNil(oauthOnly["id_token"], "OAuth without openid is plain OAuth")
        }
    }

    /// A confidential client may leave `nonce` out (Core §3.1.2.1: required only by the
    /// implicit flow; TIL requires it of public clients); the ID token then has none.
    func testAConfidentialClientMayOmitTheNonceAPublicOneMayNot() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "obiwan", on: app)
            let confidential = try await RelyingParty.register(on: app)
            let browser = BrowserClient(app.client)
            let answer = try await confidential.tokens(app, browser, "obiwan", scope: "openid", nonce: nil)
            XCTAssertNil(try DecodedIDToken(try XCTUnwrap(answer["id_token"] as? String)).claims["nonce"])

            let publicRP = try await RelyingParty.register(on: app, ["token_endpoint_auth_method": "none"])
            let refused = try await browser.get(publicRP.authorize(PKCEPair(), scope: "openid", nonce: nil))
            let query = try refused.redirectQuery()
            XCTAssertEqual(query["error"], "invalid_request")
            XCTAssertEqual(query["error_description"], "nonce is required of a public client asking for openid.")
            XCTAssertEqual(query["state"], "af0ifjsldkj")
            let withNonce = try await publicRP.tokens(app, browser, "obiwan", scope: "openid", nonce: "public-nonce")
            XCTAssertEqual(try DecodedIDToken(try XCTUnwrap(withNonce["id_token"] as? String)).claims["nonce"] as? String, "public-nonce")
        }
    }

    /// Bad input: every OpenID Connect parameter that is wrong goes back to the client as the
    /// error §3.1.2.6 and §6 name, with `state` and `iss`; nothing is a 500 or a page.
    func testEveryBadOpenIDParameterIsRedirectedWithItsError() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "rex", on: app)
            let rp = try await RelyingParty.register(on: app)
            let browser = BrowserClient(app.client)
            try await browser.signIn("rex")
            let cases: [([(name: String, value: String)], String)] = [
                ([("nonce", "a"), ("nonce", "b")], "invalid_request"),
                ([("nonce", "")], "invalid_request"),
                ([("nonce", String(repeating: "n", count: 513))], "invalid_request"),
                ([("max_age", "abc")], "invalid_request"),
                ([("max_age", "-1")], "invalid_request"),
                ([("max_age", "1.5")], "invalid_request"),
                ([("max_age", "")], "invalid_request"),
                ([("max_age", "99999999999")], "invalid_request"),
                ([("max_age", "٣")], "invalid_request"),
                ([("max_age", "1"), ("max_age", "2")], "invalid_request"),
                ([("prompt", "select_account")], "invalid_request"),
                ([("prompt", "none login")], "invalid_request"),
                ([("prompt", "")], "invalid_request"),
                ([("prompt", "NONE")], "invalid_request"),
                ([("request", "eyJhbGciOiJub25lIn0.e30.")], "request_not_supported"),
                ([("request_uri", "https://rp.example/request.jwt")], "request_uri_not_supported"),
            ]
            for (extra, error) in cases {
                let response = try await browser.get(rp.authorize(PKCEPair(), nonce: extra.contains { $0.name == "nonce" } ? nil : "n", extra))
                XCTAssertEqual(response.status, .seeOther, "\(extra): \(response.bodyString)")
                let query = try response.redirectQuery()
                XCTAssertEqual(query["error"], error, "\(extra)")
                XCTAssertEqual(query["state"], "af0ifjsldkj", "\(extra)")
                XCTAssertNotNil(query["iss"], "\(extra)")
                XCTAssertTrue(response.location?.hasPrefix("https://rp.example/cb?") == true, "\(extra)")
            }
            let codes = try await app.til.db.query("SELECT count(*) AS n FROM oauth_codes").first?.decode(column: "n", as: Int64.self)
            XCTAssertEqual(codes, 0, "no refused request left a code")
        }
    }

    /// A request object carries the other parameters (§6.1): the conformance suite sends only
    /// `response_type`, `client_id`, `scope` and `redirect_uri` beside it. TIL must answer
    /// `request_not_supported` / `request_uri_not_supported` then, not complain that PKCE,
    /// `nonce` or `state` is missing outside (it did: `invalid_request`, found by
    /// scripts/oauth-proof/conformance_basic.py). A bad redirect URI still gets a page.
    func testRequestObjectsAreRefusedBeforeTheParametersTheyCouldCarry() async throws {
        try await withTestApp { app in
            let rp = try await RelyingParty.register(on: app)
            let browser = BrowserClient(app.client)
            let outside = [("response_type", "code"), ("client_id", rp.client.id), ("scope", "openid")]
            for (name, value, error) in [("request", "eyJhbGciOiJub25lIn0.eyJub25jZSI6Im4ifQ.", "request_not_supported"),
                                         ("request_uri", "https://rp.example/request.jwt", "request_uri_not_supported")] {
                let response = try await browser.get(
                    "/oauth/authorize?" + QueryEncoding.encode(outside + [("redirect_uri", rp.client.redirectURIs[0]), (name, value)]))
                XCTAssertEqual(response.status, .seeOther, "\(name): \(response.bodyString)")
                let query = try response.redirectQuery()
                XCTAssertEqual(query["error"], error, name)
                XCTAssertNil(query["state"], "\(name): no state was sent outside the object")
                XCTAssertNotNil(query["iss"], name)
                XCTAssertTrue(response.location?.hasPrefix(rp.client.redirectURIs[0] + "?") == true, name)

                let stranger = try await browser.get(
                    "/oauth/authorize?" + QueryEncoding.encode(outside + [("redirect_uri", "https://evil.example/cb"), (name, value)]))
                XCTAssertEqual(stranger.status, .badRequest, "\(name): an unregistered redirect_uri is never redirected to")
                XCTAssertNil(stranger.location, name)
            }
        }
    }

    /// `prompt=none` (§3.1.2.1): no page ever; `login_required` without a session (or with one
    /// older than `max_age`), `consent_required` without consent, the code when both hold.
    func testPromptNoneAnswersWithoutAnyPage() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "cody", on: app)
            let rp = try await RelyingParty.register(on: app)
            let browser = BrowserClient(app.client)
            let signedOut = try await browser.get(rp.authorize(PKCEPair(), [("prompt", "none")]))
            XCTAssertEqual(try signedOut.redirectQuery()["error"], "login_required")
            try await browser.signIn("cody")
            let noConsent = try await browser.get(rp.authorize(PKCEPair(), [("prompt", "none")]))
            XCTAssertEqual(try noConsent.redirectQuery()["error"], "consent_required")
            _ = try await rp.signIn(browser, "cody", target: rp.authorize(PKCEPair()))  // approves
            let silent = try await browser.get(rp.authorize(PKCEPair(), [("prompt", "none")]))
            XCTAssertNotNil(try silent.redirectQuery()["code"], silent.location ?? "")
            try await app.ageBrowserSessions(of: "cody", by: 120)
            let stale = try await browser.get(rp.authorize(PKCEPair(), [("prompt", "none"), ("max_age", "60")]))
            XCTAssertEqual(try stale.redirectQuery()["error"], "login_required", "older than max_age")
        }
    }

    /// `prompt=login`, `max_age=0` and a sign-in older than `max_age` show the sign-in form
    /// although the browser is signed in; the ID token's `auth_time` is the new sign-in's, and
    /// the request comes back from the form without looping.
    func testPromptLoginAndMaxAgeForceAFreshSignInWhoseTimeTheIDTokenCarries() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "fives", on: app)
            let rp = try await RelyingParty.register(on: app)
            let browser = BrowserClient(app.client)
            let first = try await rp.tokens(app, browser, "fives", scope: "openid")
            let firstTime = try XCTUnwrap(try DecodedIDToken(try XCTUnwrap(first["id_token"] as? String)).authTime)
            let forcing: [[(name: String, value: String)]] = [
                [("prompt", "login")], [("max_age", "0")], [("max_age", "60")], [("prompt", "login consent")],
            ]
            for extra in forcing {
                try await app.ageBrowserSessions(of: "fives", by: 120)
                let pkce = PKCEPair()
                let page = try await browser.get(rp.authorize(pkce, scope: "openid", extra))
                XCTAssertEqual(page.status, .ok, "\(extra): the sign-in form")
                let form = try HTMLForm.only(in: page)
                XCTAssertEqual(form.action, "/login", "\(extra)")
                XCTAssertFalse(form.value("return_to")?.contains("prompt=login") ?? true, "\(extra): the login asked for is this one")
                let signedIn = try await browser.submit(form, ["username": "fives", "password": "password"])
                var back = try await browser.get(try XCTUnwrap(signedIn.location))
                if extra.contains(where: { $0.value.contains("consent") }) {
                    XCTAssertEqual(try HTMLForm.only(in: back).action, "/oauth/consent", "prompt=consent asks again")
                    back = try await browser.submit(try HTMLForm.only(in: back), clicking: ("decision", "approve"))
                }
                let code = try XCTUnwrap(try back.redirectQuery()["code"], "\(extra): \(back.status) \(back.bodyString)")
                let answer = try await rp.redeem(app.client, code: code, pkce: pkce).jsonObject()
                let authTime = try XCTUnwrap(try DecodedIDToken(try XCTUnwrap(answer["id_token"] as? String)).authTime)
                XCTAssertGreaterThan(authTime, firstTime - 120, "\(extra): a new sign-in, not the aged one")
                let stored = try await app.til.db.query("SELECT max_age, prompt FROM oauth_codes WHERE digest = \(SHA256.hex(of: code))")
                let row = try XCTUnwrap(stored.first)
                if let maxAge = extra.first(where: { $0.name == "max_age" })?.value, maxAge != "0" {
                    XCTAssertEqual(try row.decode(column: "max_age", as: Int?.self), Int(maxAge), "stored with the code")
                }
            }
            // A sign-in younger than max_age needs no form.
            let young = try await browser.get(rp.authorize(PKCEPair(), scope: "openid", [("max_age", "3600")]))
            XCTAssertNotNil(try young.redirectQuery()["code"])
        }
    }

    /// `prompt=consent` shows the consent page although the scopes were approved before; its
    /// words name OpenID Connect's scopes.
    func testPromptConsentAsksAgainInWordsOfTheOpenIDScopes() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "echo", on: app)
            let rp = try await RelyingParty.register(on: app)
            let browser = BrowserClient(app.client)
            _ = try await rp.signIn(browser, "echo", target: rp.authorize(PKCEPair(), scope: "openid profile email offline_access"))
            let again = try await browser.get(rp.authorize(PKCEPair(), scope: "openid profile email offline_access", [("prompt", "consent")]))
            XCTAssertEqual(again.status, .ok)
            let html = again.bodyString
            for scope in OpenIDScope.allCases {
                XCTAssertTrue(html.contains(scope.words) && html.contains("<code>\(scope.rawValue)</code>"), "\(scope): \(html)")
            }
            XCTAssertEqual(try HTMLForm.only(in: again).value("prompt"), "consent", "the request rides along")
        }
    }

    /// Without `scope`, a client gets its registered scopes but OpenID Connect's: `openid` is
    /// asked for by name, or it is not an OpenID Connect request.
    func testAnOmittedScopeNeverMakesAnOpenIDRequest() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "hardcase", on: app)
            let rp = try await RelyingParty.register(on: app, ["token_endpoint_auth_method": "none"])
            let browser = BrowserClient(app.client)
            let pkce = PKCEPair()
            let target = AuthorizationFlowTests.authorize(rp.client, pkce, scope: nil)
            let query = try await rp.signIn(browser, "hardcase", target: target)
            let code = try XCTUnwrap(query["code"])
            let answer = try await rp.redeem(app.client, code: code, pkce: pkce).jsonObject()
            XCTAssertEqual(answer["scope"] as? String, "acronyms:write")
            XCTAssertNil(answer["id_token"])
        }
    }
}
