import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Other spellings of the pages' names and secrets: a session cookie that is malformed, too
/// long, non-ASCII or under another name proves nothing; a CSRF token counts only byte for
/// byte; client ids, redirect URIs and scopes match only as registered, and `state` comes back
/// byte for byte; and the sign-out form refuses what the login form refuses.
final class BrowserPageSpellingTests: XCTestCase {
    private typealias Flow = AuthorizationFlowTests

    func testASessionCookieProvesNothingUnlessItIsTheValueUnderItsName() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "hera", on: app)
            let client = try await StoredClient.create(trusted: true, on: app)
            let genuine = BrowserClient(app.client)
            try await genuine.signIn("hera")
            let value = try XCTUnwrap(genuine.cookies["til_session"])
            let cases: [(String, String, String)] = [
                ("empty", "til_session", ""),
                ("short", "til_session", "x"),
                ("too long", "til_session", value + String(repeating: "A", count: 200)),
                ("non-ASCII", "til_session", String(repeating: "ü", count: 43)),
                ("upper-cased value", "til_session", value.uppercased()),
                ("the value under an upper-cased name", "TIL_SESSION", value),
                ("the value under a fullwidth name", "til\u{FF3F}session", value),
                ("the value under the prefixed name of an https issuer", "__Host-til_session", value),
            ]
            for (name, cookieName, cookieValue) in cases {
                let browser = BrowserClient(app.client)
                browser.setCookie(cookieName, cookieValue)
                let signedIn = try await browser.isSignedIn()
                XCTAssertFalse(signedIn, name)
                let answer = try await browser.get(Flow.authorize(client, PKCEPair()))
                XCTAssertEqual(answer.status, .ok, "\(name): the sign-in form, not a code")
                answer.assertPageHeaders()
                XCTAssertNil(answer.location, name)
            }
            let stillSignedIn = try await genuine.isSignedIn()
            XCTAssertTrue(stillSignedIn, "none of them touched the genuine session")
        }
    }

    /// The token is compared as bytes: upper-cased hex, a fullwidth digit or a trailing space
    /// is another token (403); the same bytes percent-encoded are the same token.
    func testACSRFTokenCountsOnlyByteForByte() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "zeb", on: app)
            let browser = BrowserClient(app.client)
            let loginForm = try HTMLForm.only(in: try await browser.get("/login"))
            let token = try XCTUnwrap(loginForm.value("csrf_token"))
            let digit = try XCTUnwrap(token.firstIndex { $0.isNumber })
            var fullwidth = token
            fullwidth.replaceSubrange(digit...digit, with: String(UnicodeScalar(0xFF10 + Int(String(token[digit]))!)!))
            let spellings = [
                ("upper-cased", token.uppercased()), ("a fullwidth digit", fullwidth), ("a trailing space", token + " "),
                ("NFD-looking", token.replacingOccurrences(of: "e", with: "e\u{301}")),
            ]
            for (name, spelling) in spellings where spelling != token {
                let forged = try await browser.submit(loginForm, ["username": "zeb", "password": "password", "csrf_token": spelling])
                XCTAssertEqual(forged.status, .forbidden, "login, \(name)")
                forged.assertPageHeaders()
                XCTAssertNil(browser.cookies["til_session"], name)
            }
            // Every byte percent-encoded: the form decodes to the same token.
            let encoded = token.utf8.map { String(format: "%%%02X", $0) }.joined()
            let body = "csrf_token=\(encoded)&username=zeb&password=password"
            let accepted = try await browser.send(.post, "/login", body: Array(body.utf8), contentType: "application/x-www-form-urlencoded")
            XCTAssertEqual(accepted.status, .seeOther, accepted.bodyString)
            // The session's token on the sign-out form, spelled otherwise.
            let signOutForm = try HTMLForm.only(in: try await browser.get("/logout"))
            let sessionToken = try XCTUnwrap(signOutForm.value("csrf_token"))
            for spelling in [sessionToken.uppercased(), sessionToken + " "] where spelling != sessionToken {
                let forged = try await browser.submit(signOutForm, ["csrf_token": spelling])
                XCTAssertEqual(forged.status, .forbidden)
            }
            let stillSignedIn = try await browser.isSignedIn()
            XCTAssertTrue(stillSignedIn)
        }
    }

    /// A client id, a redirect URI and a scope match only as registered: another Unicode
    /// spelling is another name (a 400 page for the first two, `invalid_scope` for the third).
    /// `state` is echoed byte for byte, NFD staying NFD through the consent form.
    func testAuthorizationNamesMatchOnlyAsRegisteredAndStateComesBackByteForByte() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "mira", on: app)
            let client = try await StoredClient.create(id: "caf\u{E9}-notes", on: app)
            let browser = BrowserClient(app.client)
            try await browser.signIn("mira")
            let pkce = PKCEPair()
            let valid = Flow.authorize(client, pkce)
            let nfdClient = StoredClient(id: "cafe\u{301}-notes", redirectURIs: client.redirectURIs)
            for (name, target) in [
                ("client id in NFD", Flow.authorize(nfdClient, pkce)),
                ("client id upper-cased", Flow.authorize(StoredClient(id: client.id.uppercased(), redirectURIs: client.redirectURIs), pkce)),
                ("redirect host upper-cased", Flow.authorize(StoredClient(id: client.id, redirectURIs: ["https://APP.example/callback"]), pkce)),
                ("redirect host fullwidth", Flow.authorize(StoredClient(id: client.id, redirectURIs: ["https://\u{FF41}pp.example/callback"]), pkce)),
            ] {
                let answer = try await browser.get(target)
                XCTAssertEqual(answer.status, .badRequest, name)
                XCTAssertNil(answer.location, "\(name): never redirected")
                XCTAssertTrue(answer.bodyString.contains("not sent back"), name)
            }
            for scope in ["acronyms\u{FF1A}write", "ACRONYMS:WRITE", "acronyms:wr\u{0131}te"] {
                let answer = try await browser.get(Flow.authorize(client, pkce, scope: scope))
                XCTAssertEqual(try answer.redirectQuery()["error"], "invalid_scope", scope)
            }
            let nfd = "Cafe\u{301} \u{1F600}"
            let consent = try await browser.get(valid.replacingOccurrences(of: "state=xyz", with: "state=" + QueryEncoding.escape(nfd)))
            let form = try HTMLForm.only(in: consent)
            XCTAssertEqual(form.value("state").map { Array($0.utf8) }, Array(nfd.utf8), "carried in the form as sent")
            let approved = try await browser.submit(form, clicking: ("decision", "approve"))
            let state = try XCTUnwrap(try approved.redirectQuery()["state"])
            XCTAssertEqual(Array(state.utf8), Array(nfd.utf8), "not normalised to NFC")
            XCTAssertNotNil(try approved.redirectQuery()["code"])
        }
    }

    /// What the login form refuses, the sign-out form refuses too, and ends nothing for it.
    func testTheSignOutFormRefusesOtherBodiesAndFieldsTwice() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "sato", on: app)
            for path in ["/logout", "/oauth/logout"] {
                let browser = BrowserClient(app.client)
                try await browser.signIn("sato")
                let page = try await browser.get(path)
                let token = try XCTUnwrap(try HTMLForm.only(in: page).value("csrf_token"))
                let json = try await browser.send(.post, path, body: Array(#"{"csrf_token":"\#(token)"}"#.utf8), contentType: "application/json")
                XCTAssertEqual(json.status, .badRequest, path)
                json.assertPageHeaders()
                let twice = try await browser.post(path, [("csrf_token", token), ("csrf_token", token)])
                XCTAssertEqual(twice.status, .badRequest, path)
                XCTAssertTrue(twice.bodyString.contains("more than once"), path)
                let tooLong = try await browser.post(path, [("csrf_token", String(repeating: "a", count: 5000))])
                XCTAssertEqual(tooLong.status, .badRequest, path)
                let signedIn = try await browser.isSignedIn()
                XCTAssertTrue(signedIn, "\(path): a refused form ends nothing")
            }
        }
    }
}
