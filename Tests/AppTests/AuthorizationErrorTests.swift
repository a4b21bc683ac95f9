import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The authorization endpoint's errors: before the client and redirect URI are proven, a 400
/// page and never a redirect; after, a redirect with `error`, `error_description`, `state`
/// and `iss`.
final class AuthorizationErrorTests: XCTestCase {
    private typealias Flow = AuthorizationFlowTests

    /// A new user signed in in a new browser, and a third-party client.
    private func signedIn(_ username: String, on app: TestApp) async throws -> (User, StoredClient, BrowserClient) {
        let user = try await User.create(username: username, on: app)
        let client = try await StoredClient.create(on: app)
        let browser = BrowserClient(app.client)
        try await browser.signIn(username)
        return (user, client, browser)
    }

    func testAnUnknownClientOrUnregisteredRedirectIsA400PageNeverARedirect() async throws {
        try await withTestApp { app in
            let client = try await StoredClient.create(on: app)
            let several = try await StoredClient.create(redirectURIs: ["https://a.example/cb", "https://b.example/cb"], on: app)
            let pkce = PKCEPair()
            let valid = Flow.authorize(client, pkce)
            let cases: [(String, String)] = [
                ("unknown client", valid.replacingOccurrences(of: "client_id=\(client.id)", with: "client_id=nobody")),
                ("no client", valid.replacingOccurrences(of: "client_id=\(client.id)&", with: "")),
                ("client twice", valid + "&client_id=\(client.id)"),
                ("unregistered redirect", valid.replacingOccurrences(of: "app.example", with: "evil.example")),
                ("redirect with extra path", valid.replacingOccurrences(of: "callback", with: "callback%2F..%2Fx")),
                ("redirect with query", valid.replacingOccurrences(of: "callback", with: "callback%3Fx%3D1")),
                ("redirect twice", valid + "&redirect_uri=https%3A%2F%2Fevil.example%2F"),
                ("overlong redirect", valid.replacingOccurrences(of: "callback", with: String(repeating: "a", count: 3000))),
                ("no redirect, several registered", Flow.authorize(several, pkce).replacingOccurrences(of: "redirect_uri=https%3A%2F%2Fa.example%2Fcb&", with: "")),
                ("response_type=token, unknown client", "/oauth/authorize?response_type=token&client_id=nobody&redirect_uri=https%3A%2F%2Fevil.example"),
            ]
            for (name, target) in cases {
                let answer = try await app.client.send(.get, target)
                XCTAssertEqual(answer.status, .badRequest, name)
                XCTAssertNil(answer.location, "\(name): never redirected")
                answer.assertPageHeaders()
                XCTAssertTrue(answer.bodyString.contains(#"role="alert""#), name)
                XCTAssertTrue(answer.bodyString.contains("not sent back"), name)
            }
        }
    }

    func testOtherErrorsRedirectWithErrorDescriptionStateAndIss() async throws {
        try await withTestApp(settings: ["RESOURCES": "https://notes.example=notes:read"]) { app in
            let client = try await StoredClient.create(scope: ["acronyms:write", "account", "notes:read"], on: app)
            let credentialsOnly = try await StoredClient.create(grantTypes: ["client_credentials"], on: app)
            let issuer = try await Flow.issuer(app)
            let pkce = PKCEPair()
            func without(_ name: String, _ target: String) -> String {
                target.replacingOccurrences(of: #"(?<=[?&])\#(name)=[^&]*&?"#, with: "", options: .regularExpression)
            }
            let valid = Flow.authorize(client, pkce)
            let cases: [(String, String, String)] = [
                ("no response_type", without("response_type", valid), "invalid_request"),
                ("response_type=token", valid.replacingOccurrences(of: "response_type=code", with: "response_type=token"), "unsupported_response_type"),
                ("response_type twice", valid + "&response_type=code", "invalid_request"),
                ("no challenge", without("code_challenge", valid), "invalid_request"),
                ("plain", valid.replacingOccurrences(of: "S256", with: "plain"), "invalid_request"),
                ("no method", without("code_challenge_method", valid), "invalid_request"),
                ("short challenge", valid.replacingOccurrences(of: pkce.challenge, with: "abc"), "invalid_request"),
                ("challenge not base64url", valid.replacingOccurrences(of: pkce.challenge, with: String(repeating: "+", count: 43)), "invalid_request"),
                ("challenge twice", valid + "&code_challenge=\(pkce.challenge)", "invalid_request"),
                ("unknown scope", valid.replacingOccurrences(of: "scope=acronyms%3Awrite", with: "scope=everything"), "invalid_scope"),
                ("scope beyond registration", valid.replacingOccurrences(of: "scope=acronyms%3Awrite", with: "scope=users%3Awrite"), "invalid_scope"),
                ("account to a third party", valid.replacingOccurrences(of: "scope=acronyms%3Awrite", with: "scope=account"), "invalid_scope"),
                ("empty scope", valid.replacingOccurrences(of: "scope=acronyms%3Awrite", with: "scope="), "invalid_scope"),
                ("scope twice", valid + "&scope=acronyms%3Awrite", "invalid_scope"),
                ("unknown resource", valid + "&resource=https%3A%2F%2Fevil.example", "invalid_target"),
                ("unknown prompt", valid + "&prompt=maybe", "invalid_request"),
                ("no authorization_code grant", Flow.authorize(credentialsOnly, pkce), "unauthorized_client"),
                ("overlong scope", valid.replacingOccurrences(of: "scope=acronyms%3Awrite", with: "scope=" + String(repeating: "a", count: 2049)), "invalid_scope"),
                ("too many parameters", valid + (0..<30).map { "&x\($0)=1" }.joined(), "invalid_request"),
                ("too many resources", valid + String(repeating: "&resource=https%3A%2F%2Fnotes.example", count: 9), "invalid_target"),
            ]
            for (name, target, error) in cases {
                let answer = try await app.client.send(.get, target)
                XCTAssertEqual(answer.status, .seeOther, name)
                let query = try answer.redirectQuery()
                XCTAssertEqual(query["error"], error, "\(name): \(answer.location ?? "")")
                XCTAssertNotNil(query["error_description"], name)
                XCTAssertEqual(query["iss"], issuer, name)
                XCTAssertEqual(query["state"], "xyz", name)
                XCTAssertNil(query["code"], name)
            }
            // A known resource is accepted (no error before the sign-in form).
            let named = try await app.client.send(.get, valid + "&resource=https%3A%2F%2Fnotes.example")
            XCTAssertEqual(named.status, .ok)
            // state: sent twice or too long is not echoed.
            for badState in [valid + "&state=again", valid.replacingOccurrences(of: "state=xyz", with: "state=" + String(repeating: "s", count: 1025))] {
                let answer = try await app.client.send(.get, badState)
                let query = try answer.redirectQuery()
                XCTAssertEqual(query["error"], "invalid_request")
                XCTAssertNil(query["state"])
            }
        }
    }

    func testPromptNoneAndPromptLogin() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "sabine", on: app)
            let client = try await StoredClient.create(on: app)
            let browser = BrowserClient(app.client)
            let silent = Flow.authorize(client, PKCEPair(), [("prompt", "none")])
            let answer1 = try await browser.get(silent)
            XCTAssertEqual(try answer1.redirectQuery()["error"], "login_required")
            try await browser.signIn("sabine")
            let answer2 = try await browser.get(silent)
            XCTAssertEqual(try answer2.redirectQuery()["error"], "consent_required")
            let firstSession = try XCTUnwrap(browser.cookies["til_session"])
            // prompt=login: the form even with a session; afterwards a new session, then on.
            let forced = try await browser.get(Flow.authorize(client, PKCEPair(), [("prompt", "login")]))
            XCTAssertEqual(forced.status, .ok)
            let form = try HTMLForm.only(in: forced)
            XCTAssertFalse(form.value("return_to")!.contains("prompt"), "the login it asks for is this one")
            let signedIn = try await browser.submit(form, ["username": "sabine", "password": "password"])
            XCTAssertNotEqual(browser.cookies["til_session"], firstSession)
            let consent = try await browser.get(signedIn.location!)
            let approved = try await browser.submit(try HTMLForm.only(in: consent), clicking: ("decision", "approve"))
            XCTAssertNotNil(try approved.redirectQuery()["code"])
            // With consent remembered, prompt=none answers with a code at once.
            let quiet = try await browser.get(silent)
            XCTAssertNotNil(try quiet.redirectQuery()["code"])
            // prompt=consent asks again even so.
            let asked = try await browser.get(Flow.authorize(client, PKCEPair(), [("prompt", "consent")]))
            XCTAssertEqual(asked.status, .ok)
            XCTAssertEqual(try HTMLForm.only(in: asked).action, "/oauth/consent")
        }
    }

    func testDenyNewScopesAndTheUnionOfConsent() async throws {
        try await withTestApp { app in
            let (user, client, browser) = try await signedIn("ezra", on: app)
            let denied = try await browser.submit(
                try HTMLForm.only(in: try await browser.get(Flow.authorize(client, PKCEPair()))), clicking: ("decision", "deny"))
            let query = try denied.redirectQuery()
            XCTAssertEqual(query["error"], "access_denied")
            XCTAssertEqual(query["state"], "xyz")
            XCTAssertNil(query["code"])
            let none = try await app.til.db.query("SELECT count(*) AS n FROM oauth_grants")
            XCTAssertEqual(try none[0].decode(column: "n", as: Int64.self), 0, "a denial remembers nothing")
            _ = try await browser.submit(
                try HTMLForm.only(in: try await browser.get(Flow.authorize(client, PKCEPair()))), clicking: ("decision", "approve"))
            // A new scope: the page asks again, for both.
            let wider = try await browser.get(Flow.authorize(client, PKCEPair(), scope: "categories:write"))
            XCTAssertEqual(wider.status, .ok)
            XCTAssertTrue(wider.bodyString.contains("acronyms:write") && wider.bodyString.contains("categories:write"))
            _ = try await browser.submit(try HTMLForm.only(in: wider), clicking: ("decision", "approve"))
            let stored = try await app.til.db.query("SELECT scopes FROM oauth_grants WHERE user_id = \(user.id)")
            XCTAssertEqual(try stored[0].decode(column: "scopes", as: String.self), "acronyms:write categories:write")
            let code = try await app.til.db.query("SELECT scopes FROM oauth_codes ORDER BY expires_at DESC LIMIT 1")
            XCTAssertEqual(try code[0].decode(column: "scopes", as: String.self), "categories:write", "the code has what was asked")
            // A bad decision value, and a decision without the session's token.
            let form = try HTMLForm.only(in: try await browser.get(Flow.authorize(client, PKCEPair(), [("prompt", "consent")])))
            let odd = try await browser.submit(form, clicking: ("decision", "maybe"))
            XCTAssertEqual(odd.status, .badRequest)
            XCTAssertNil(odd.location)
            let forged = try await browser.submit(form, ["csrf_token": CSRFToken.token(boundTo: "x")], clicking: ("decision", "approve"))
            XCTAssertEqual(forged.status, .forbidden)
            XCTAssertNil(forged.location)
            let stranger = BrowserClient(app.client)
            let noSession = try await stranger.submit(form, clicking: ("decision", "approve"))
            XCTAssertEqual(noSession.status, .forbidden, "no session cookie, no valid token")
            // A changed hidden field is checked afresh: another redirect URI is refused as a page.
            let tampered = try await browser.submit(form, ["redirect_uri": "https://evil.example/"], clicking: ("decision", "approve"))
            XCTAssertEqual(tampered.status, .badRequest)
            XCTAssertNil(tampered.location)
        }
    }

    func testTwoApprovalsAtOnceBothLandAndStoreTheUnion() async throws {
        try await withTestApp { app in
            let (user, client, browser) = try await signedIn("hondo", on: app)
            let first = try HTMLForm.only(in: try await browser.get(Flow.authorize(client, PKCEPair(), scope: "acronyms:write")))
            let second = try HTMLForm.only(in: try await browser.get(Flow.authorize(client, PKCEPair(), scope: "categories:write")))
            let cookie = "til_session=\(browser.cookies["til_session"]!)"
            func body(_ form: HTMLForm) -> [UInt8] {
                Array(QueryEncoding.encode(form.fields + [(name: "decision", value: "approve")]).utf8)
            }
            let headers: HTTPHeaders = ["Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"]
            let client2 = app.client
            async let a = client2.send(.post, "/oauth/consent", headers: headers, body: body(first))
            async let b = client2.send(.post, "/oauth/consent", headers: headers, body: body(second))
            let answers = try await [a, b]
            XCTAssertEqual(answers.map(\.status), [.seeOther, .seeOther])
            let codes = try answers.map { try $0.redirectQuery()["code"] }
            XCTAssertEqual(Set(codes.compactMap { $0 }).count, 2)
            let stored = try await app.til.db.query("SELECT scopes FROM oauth_grants WHERE user_id = \(user.id)")
            XCTAssertEqual(try stored[0].decode(column: "scopes", as: String.self), "acronyms:write categories:write")
        }
    }

    func testClientsWriteOnlyForAdministrators() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "thrawn", on: app)
            let client = try await StoredClient.create(scope: ["clients:write"], trusted: true, on: app)
            let target = Flow.authorize(client, PKCEPair(), scope: "clients:write")
            let user = BrowserClient(app.client)
            try await user.signIn("thrawn")
            let answer3 = try await user.get(target)
            XCTAssertEqual(try answer3.redirectQuery()["error"], "invalid_scope")
            let admin = BrowserClient(app.client)
            try await admin.signIn("admin")
            let answer4 = try await admin.get(target)
            XCTAssertNotNil(try answer4.redirectQuery()["code"])
        }
    }

    /// A consent given on the page is listed in `GET /api/users/me/grants`; withdrawn there, the
    /// next request asks again.
    func testAWithdrawnGrantIsAskedForAgain() async throws {
        try await withTestApp { app in
            let (_, client, browser) = try await signedIn("cad", on: app)
            let first = try await browser.get(Flow.authorize(client, PKCEPair()))
            _ = try await browser.submit(try HTMLForm.only(in: first), clicking: ("decision", "approve"))
            let skipped = try await browser.get(Flow.authorize(client, PKCEPair()))
            XCTAssertEqual(skipped.status, .seeOther, "remembered")
            let token = try await app.client.session("cad").value
            let grants = try await app.client.send(.get, "/api/users/me/grants", auth: .bearer(token))
            XCTAssertTrue(grants.bodyString.contains(client.id), grants.bodyString)
            XCTAssertTrue(grants.bodyString.contains("Notes App"), grants.bodyString)
            let withdrawn = try await app.client.send(.delete, "/api/users/me/grants/\(client.id)", auth: .bearer(token))
            XCTAssertEqual(withdrawn.status, .noContent)
            let asked = try await browser.get(Flow.authorize(client, PKCEPair()))
            XCTAssertEqual(asked.status, .ok)
            XCTAssertEqual(try HTMLForm.only(in: asked).action, "/oauth/consent")
        }
    }
}
