import AppTesting
import Crypt
import Foundation
import Postgres
import TILWire
import Web
import WebAuthn
import WebAuthnTesting
import WebTesting
import XCTest
@testable import App

/// The script's page endpoints, as a browser reaches them: the sign-in page's cookie and
/// CSRF token start a browser session with a passkey; the signed-in session's adds one. The
/// `/api` routes never take the cookie.
final class PasskeyPagesTests: XCTestCase {
    /// JSON `body` posted as the script posts it, with `csrf` as `X-CSRF-Token`.
    private func post(_ browser: BrowserClient, _ path: String, _ body: Data, csrf: String?) async throws -> TestResponse {
        try await browser.send(.post, path, body: Array(body), contentType: "application/json", headers: csrf.map { ["X-CSRF-Token": $0] } ?? [:])
    }

    /// The sign-in page's CSRF token (its form's), with its pre-login cookie in the jar.
    private func signInPageToken(_ browser: BrowserClient) async throws -> String {
        let page = try await browser.get("/login")
        return try XCTUnwrap(try HTMLForm.only(in: page).value("csrf_token"))
    }

    func testTheScriptIsServedAsAFirstPartyFile() async throws {
        try await withTestApp { app in
            let script = try await app.client.send(.get, "/assets/passkeys.js")
            XCTAssertEqual(script.status.code, 200)
            XCTAssertEqual(script.headers["Content-Type"], "text/javascript; charset=utf-8")
            XCTAssertEqual(script.headers["Cache-Control"], "public, max-age=3600")
            XCTAssertEqual(script.headers["X-Content-Type-Options"], "nosniff")
            for call in ["navigator.credentials.get", "navigator.credentials.create", "X-CSRF-Token", "/login/passkey/options",
                         "/account/passkeys/options", "passkey-sign-in", "passkey-second-factor", "passkey-add"] {
                XCTAssertTrue(script.bodyString.contains(call), "the script lacks \(call)")
            }
            XCTAssertFalse(script.bodyString.contains("eval("), "nothing CSP would refuse")
            XCTAssertLessThan(script.body.count, 8192, "one small file")
        }
    }

    func testSigningInWithAPasskeyStartsABrowserSession() async throws {
        try await withTestApp { app in
            let user = try await User.create(username: "paged", on: app)
            let token = try await app.client.session("paged", scope: "account").value
            let ceremony = PasskeyCeremony(client: app.client)
            var authenticator = try PasskeyCeremony.authenticator()
            try await ceremony.registered(&authenticator, token: token)

            let browser = BrowserClient(app.client)
            let csrf = try await signInPageToken(browser)
            for wrong in [nil, "", String(repeating: "0", count: 64)] {
                let refused = try await post(browser, "/login/passkey/options", Data("{}".utf8), csrf: wrong)
                assertRefused(refused, 403, mentioning: "CSRF", "options with token \(wrong ?? "none")")
            }
            let stranger = BrowserClient(app.client)  // a token of another browser's cookie
            _ = try await signInPageToken(stranger)
            assertRefused(try await post(stranger, "/login/passkey/options", Data("{}".utf8), csrf: csrf), 403, mentioning: "CSRF")

            let options = try await post(browser, "/login/passkey/options", Data(#"{"username":"PAGED"}"#.utf8), csrf: csrf)
            XCTAssertEqual(options.status.code, 200, options.bodyString)
            let request = try options.decode(PasskeyOptionsTests.Request.self)
            XCTAssertEqual(request.allowCredentials.map(\.id), [Base64URL.encode(authenticator.credentialID)])
            let assertion = try authenticator.assert(challenge: try XCTUnwrap(Base64URL.decode(request.challenge)))
            let body = Data(#"{"returnTo":"/oauth/authorize?x=1","credential":"#.utf8) + assertion + Data("}".utf8)
            assertRefused(try await post(browser, "/login/passkey", body, csrf: nil), 403, mentioning: "CSRF", "no token: nothing spent")
            let signedIn = try await post(browser, "/login/passkey", body, csrf: csrf)
            XCTAssertEqual(signedIn.status.code, 200, signedIn.bodyString)
            XCTAssertEqual(signedIn.bodyString, #"{"next":"/oauth/authorize?x=1"}"#)
            XCTAssertEqual(signedIn.headers["Cache-Control"], "no-store")
            XCTAssertNotNil(browser.cookies["til_session"], "the session's cookie")
            XCTAssertNil(browser.cookies["til_login"], "the pre-login cookie is spent")
            let page = try await browser.get("/login")
            XCTAssertTrue(page.bodyString.contains("paged"), "signed in as the passkey's owner: \(page.bodyString)")
            let sessions = try await app.til.db.query("SELECT count(*) AS n FROM sessions WHERE user_id = \(user.id) AND kind = 'browser'")
            XCTAssertEqual(try sessions.first?.decode(column: "n", as: Int.self), 1)

            // The same answer again, and a return_to off this server.
            let replay = try await post(browser, "/login/passkey", body, csrf: csrf)
            XCTAssertTrue([401, 403].contains(replay.status.code), "a spent pre-login cookie or challenge: \(replay.bodyString)")
            let fresh = BrowserClient(app.client)
            let freshToken = try await signInPageToken(fresh)
            let offsite = Data(#"{"returnTo":"https://evil.example/","credential":"#.utf8) + (try await ceremony.assertion(&authenticator)) + Data("}".utf8)
            assertRefused(try await post(fresh, "/login/passkey", offsite, csrf: freshToken), 400, mentioning: "'returnTo'")
            let tampered = Data(#"{"credential":"#.utf8) + (try await ceremony.assertion(&authenticator, tampering: Tampering { $0.userVerified = false })) + Data("}".utf8)
            assertRefused(try await post(fresh, "/login/passkey", tampered, csrf: freshToken), 401, mentioning: "not verified")
        }
    }

    func testTheAccountPageAddsAPasskeyWithTheSessionAndItsToken() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "adder", on: app)
            let browser = BrowserClient(app.client)
            let form = try HTMLForm.only(in: try await browser.get("/login"))
            let login = try await browser.submit(form, ["username": "adder", "password": "password"], from: "/login")
            XCTAssertEqual(login.status.code, 303, login.bodyString)
            let session = try XCTUnwrap(browser.cookies["til_session"])
            let csrf = CSRFToken.token(boundTo: session)

            let anonymous = try await post(BrowserClient(app.client), "/account/passkeys/options", Data("{}".utf8), csrf: csrf)
            assertRefused(anonymous, 401, mentioning: "not signed in")
            assertRefused(try await post(browser, "/account/passkeys/options", Data("{}".utf8), csrf: nil), 403, mentioning: "CSRF")
            let preLoginToken = try await post(browser, "/account/passkeys/options", Data("{}".utf8), csrf: CSRFToken.token(boundTo: "other"))
            assertRefused(preLoginToken, 403, mentioning: "CSRF")

            let options = try await post(browser, "/account/passkeys/options", Data("{}".utf8), csrf: csrf)
            XCTAssertEqual(options.status.code, 200, options.bodyString)
            let creation = try options.decode(PasskeyOptionsTests.Creation.self)
            var authenticator = try PasskeyCeremony.authenticator(.rs256)
            let credential = try authenticator.register(
                challenge: try XCTUnwrap(Base64URL.decode(creation.challenge)), userID: try XCTUnwrap(Base64URL.decode(creation.user.id)))
            let body = Data(#"{"name":"Büro-Laptop","credential":"#.utf8) + credential + Data("}".utf8)
            assertRefused(try await post(browser, "/account/passkeys", body, csrf: nil), 403, mentioning: "CSRF")
            let added = try await post(browser, "/account/passkeys", body, csrf: csrf)
            XCTAssertEqual(added.status.code, 201, added.bodyString)
            XCTAssertEqual(added.bodyString, #"{"next":"/account"}"#)
            let names = try await app.til.db.query("SELECT name FROM passkeys").map { try $0.decode(column: "name", as: String.self) }
            XCTAssertEqual(names, ["Büro-Laptop"])

            // The cookie alone opens no /api route.
            let api = try await browser.send(.post, "/api/users/me/passkeys/options", headers: ["X-CSRF-Token": csrf])
            XCTAssertEqual(api.status.code, 401, "the API takes bearer tokens only: \(api.bodyString)")
            let list = try await browser.send(.get, "/api/users/me/passkeys")
            XCTAssertEqual(list.status.code, 401)
        }
    }
}
