import AppTesting
import Foundation
import JOSE
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// OpenID Connect RP-Initiated Logout 1.0 at `/oauth/logout`: a valid `id_token_hint` signs
/// its user out at once, anything less asks first, and the browser goes back only to a
/// registered `post_logout_redirect_uri`, with `state`.
final class OpenIDLogoutTests: XCTestCase {
    /// Signs `username` in for `rp`; the ID token.
    private func idToken(_ app: TestApp, _ rp: RelyingParty, _ browser: BrowserClient, _ username: String) async throws -> String {
        let answer = try await rp.tokens(app, browser, username, scope: "openid")
        return try XCTUnwrap(answer["id_token"] as? String)
    }

    private func assertLiveBrowserSessions(
        _ app: TestApp, _ expected: Int64, _ message: String = "", file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        let live = try await app.til.db.query("SELECT count(*) AS n FROM sessions WHERE kind = 'browser' AND revoked_at IS NULL")
            .first?.decode(column: "n", as: Int64.self)
        XCTAssertEqual(live, expected, message, file: file, line: line)
    }

    private func assertSignedIn(_ browser: BrowserClient, _ expected: Bool, _ message: String = "", line: UInt = #line) async throws {
        let signedIn = try await browser.isSignedIn()
        XCTAssertEqual(signedIn, expected, message, line: line)
    }

    func testAHintNamingTheSignedInUserSignsOutAtOnceAndReturnsWithState() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "kix", on: app)
            let rp = try await RelyingParty.register(on: app)
            for method in [HTTPMethod.get, .post] {
                let browser = BrowserClient(app.client)
                let hint = try await idToken(app, rp, browser, "kix")
                let fields = [("id_token_hint", hint), ("post_logout_redirect_uri", RelyingParty.postLogoutURI), ("state", "s t&ä")]
                let response = method == .get
                    ? try await browser.get("/oauth/logout?" + QueryEncoding.encode(fields.map { (name: $0.0, value: $0.1) }))
                    : try await browser.post("/oauth/logout", fields.map { (name: $0.0, value: $0.1) })
                XCTAssertEqual(response.status, .seeOther, "\(method): \(response.bodyString)")
                XCTAssertEqual(response.location, RelyingParty.postLogoutURI + "?state=s%20t%26%C3%A4", "\(method)")
                XCTAssertNil(browser.cookies["til_session"], "\(method): the cookie is removed")
                try await assertLiveBrowserSessions(app, 0, "\(method): the session is over")
                try await assertSignedIn(browser, false)
            }
        }
    }

    /// No hint (or one naming someone else): the confirmation page, whose form carries the
    /// request and a CSRF token; a forged token ends nothing; the confirmation does.
    func testWithoutAValidHintTheUserConfirms() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "tup", on: app)
            _ = try await User.create(username: "dogma", on: app)
            let rp = try await RelyingParty.register(on: app)
            let other = BrowserClient(app.client)
            let dogmasHint = try await idToken(app, rp, other, "dogma")
            let browser = BrowserClient(app.client)
            _ = try await idToken(app, rp, browser, "tup")
            for query in [
                [("client_id", rp.client.id), ("post_logout_redirect_uri", RelyingParty.postLogoutURI), ("state", "xyz")],
                [("id_token_hint", dogmasHint), ("post_logout_redirect_uri", RelyingParty.postLogoutURI), ("state", "xyz")],
            ] {
                let page = try await browser.get("/oauth/logout?" + QueryEncoding.encode(query.map { (name: $0.0, value: $0.1) }))
                XCTAssertEqual(page.status, .ok, page.bodyString)
                page.assertPageHeaders()
                XCTAssertTrue(page.headers["Content-Security-Policy"]?.contains("form-action 'self' https://rp.example;") == true)
                XCTAssertTrue(page.bodyString.contains("Relying Party") && page.bodyString.contains("tup"))
                let form = try HTMLForm.only(in: page)
                XCTAssertEqual(form.action, "/oauth/logout")
                XCTAssertEqual(form.value("client_id"), rp.client.id)
                XCTAssertEqual(form.value("state"), "xyz")
                try await assertLiveBrowserSessions(app, 2, "a GET without a valid hint ends nothing")
                let forged = try await browser.submit(form, ["csrf_token": CSRFToken.token(boundTo: "another")])
                XCTAssertEqual(forged.status, .forbidden)
                let protocolPost = try await browser.post("/oauth/logout", query.map { (name: $0.0, value: $0.1) })
                XCTAssertEqual(protocolPost.status, .ok, "a protocol POST asks too")
                try await assertLiveBrowserSessions(app, 2)
            }
            let page = try await browser.get("/oauth/logout?" + QueryEncoding.encode([
                (name: "client_id", value: rp.client.id), (name: "post_logout_redirect_uri", value: RelyingParty.postLogoutURI),
                (name: "state", value: "xyz"),
            ]))
            let confirmed = try await browser.submit(try HTMLForm.only(in: page))
            XCTAssertEqual(confirmed.status, .seeOther)
            XCTAssertEqual(confirmed.location, RelyingParty.postLogoutURI + "?state=xyz")
            try await assertLiveBrowserSessions(app, 1, "tup signed out, dogma not")
            // Nobody signed in: nothing to confirm; a registered URI is followed, none is TIL's page.
            let again = try await browser.get("/oauth/logout?" + QueryEncoding.encode([
                (name: "client_id", value: rp.client.id), (name: "post_logout_redirect_uri", value: RelyingParty.postLogoutURI),
            ]))
            XCTAssertEqual(again.location, RelyingParty.postLogoutURI)
            let plain = try await browser.get("/oauth/logout")
            XCTAssertEqual(plain.status, .ok)
            XCTAssertTrue(plain.bodyString.contains("not signed in"))
        }
    }

    /// Bad input: each is a 400 page of TIL's, never a redirect, and ends nothing.
    func testEveryBadLogoutRequestIsAPageNeverARedirect() async throws {
        try await withTestApp(settings: ["ISSUER": "https://til.example"]) { app in
            _ = try await User.create(username: "hevy", on: app)
            let rp = try await RelyingParty.register(on: app)
            let otherRP = try await RelyingParty.register(on: app, ["post_logout_redirect_uris": ["https://other.example/bye"]])
            let browser = BrowserClient(app.client)
            let hint = try await idToken(app, rp, browser, "hevy")
            let sub = try XCTUnwrap(try DecodedIDToken(hint).sub)
            let now = Int(Date().timeIntervalSince1970)
            func signed(iss: String) async throws -> String {
                try await app.til.signingKeys.sign(
                    IDTokenClaims(iss: iss, sub: sub, aud: rp.client.id, exp: now + 60, iat: now, authTime: now, nonce: nil, atHash: nil, azp: rp.client.id),
                    algorithm: .rs256)
            }
            let parts = hint.split(separator: ".").map(String.init)
            let uri = RelyingParty.postLogoutURI
            let cases: [(String, [(String, String)])] = [
                ("garbage hint", [("id_token_hint", "not-a-jwt"), ("post_logout_redirect_uri", uri)]),
                ("tampered hint", [("id_token_hint", parts[0] + "." + parts[1].dropLast(2) + "." + parts[2]), ("post_logout_redirect_uri", uri)]),
                ("another issuer's", [("id_token_hint", try await signed(iss: "https://evil.example")), ("post_logout_redirect_uri", uri)]),
                ("overlong hint", [("id_token_hint", String(repeating: "a", count: 9000))]),
                ("client_id not the hint's aud", [("id_token_hint", hint), ("client_id", otherRP.client.id), ("post_logout_redirect_uri", uri)]),
                ("unregistered uri", [("client_id", rp.client.id), ("post_logout_redirect_uri", "https://evil.example/")]),
                ("another client's uri", [("client_id", rp.client.id), ("post_logout_redirect_uri", "https://other.example/bye")]),
                ("uri differing in case", [("client_id", rp.client.id), ("post_logout_redirect_uri", uri.uppercased())]),
                ("uri without a client", [("post_logout_redirect_uri", uri)]),
                ("unknown client", [("client_id", "no-such-client"), ("post_logout_redirect_uri", uri)]),
                ("client_id twice", [("client_id", rp.client.id), ("client_id", rp.client.id)]),
                ("state twice", [("client_id", rp.client.id), ("state", "a"), ("state", "b")]),
            ]
            for (label, fields) in cases {
                let pairs = fields.map { (name: $0.0, value: $0.1) }
                for response in [try await browser.get("/oauth/logout?" + QueryEncoding.encode(pairs)), try await browser.post("/oauth/logout", pairs)] {
                    XCTAssertEqual(response.status, .badRequest, "\(label): \(response.bodyString)")
                    XCTAssertNil(response.location, label)
                    response.assertPageHeaders()
                }
            }
            try await assertSignedIn(browser, true, "nothing ended")
            // An expired hint still names the sign-in (§4): accepted for logout.
            let expired = try await app.til.signingKeys.sign(
                IDTokenClaims(iss: "https://til.example", sub: sub, aud: rp.client.id, exp: now - 3600, iat: now - 7200, authTime: now - 7200,
                              nonce: nil, atHash: nil, azp: rp.client.id), algorithm: .rs256)
            let out = try await browser.get("/oauth/logout?" + QueryEncoding.encode([(name: "id_token_hint", value: expired)]))
            XCTAssertEqual(out.status, .ok, out.bodyString)
            XCTAssertTrue(out.bodyString.contains("signed out"))
            try await assertSignedIn(browser, false)
        }
    }
}
