import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// `/login` and the sign-out pages, driven as a browser drives them: the form read from the
/// page, posted with the cookies the server set.
final class LoginPageTests: XCTestCase {
    func testTheFormIsAccessibleAndCarriesTheTokenBoundToThePreLoginCookie() async throws {
        try await withTestApp { app in
            let browser = BrowserClient(app.client)
            let page = try await browser.get("/login?return_to=/api/users/me")
            XCTAssertEqual(page.status, .ok)
            page.assertPageHeaders()
            let html = page.bodyString
            for fragment in [
                #"<label for="username">"#, #"autocomplete="username""#, #"<label for="password">"#,
                #"autocomplete="current-password""#, #"type="password""#, #"<link rel="stylesheet" href="/pages/til.css">"#, "TIL",
            ] {
                XCTAssertTrue(html.contains(fragment), "\(fragment) in \(html)")
            }
            XCTAssertEqual(html.components(separatedBy: "<script").count, 2, "one script")
            XCTAssertTrue(html.contains(#"<script src="/assets/passkeys.js" defer></script>"#), "TIL's own file, never inline")
            XCTAssertTrue(html.contains(#"<button type="button" id="passkey-sign-in" class="secondary" hidden>"#), "hidden without it")
            XCTAssertFalse(html.contains("style="), "no inline style")
            let form = try HTMLForm.only(in: page)
            XCTAssertEqual(form.method, "post")
            XCTAssertEqual(form.action, "/login")
            XCTAssertEqual(form.value("return_to"), "/api/users/me")
            let secret = try XCTUnwrap(browser.cookies["til_login"], "pre-login cookie")
            XCTAssertEqual(form.value("csrf_token"), CSRFToken.token(boundTo: secret))
            XCTAssertNotEqual(form.value("csrf_token"), secret, "the token does not reveal the cookie")
            let setCookie = try XCTUnwrap(page.headers["Set-Cookie"])
            for attribute in ["HttpOnly", "SameSite=Lax", "Path=/"] { XCTAssertTrue(setCookie.contains(attribute), setCookie) }
            XCTAssertFalse(setCookie.contains("Secure"), "the test issuer is http")
            let css = try await app.client.send(.get, "/pages/til.css")
            XCTAssertEqual(css.status, .ok)
            XCTAssertEqual(css.headers["Content-Type"], "text/css; charset=utf-8")
        }
    }

    func testASuccessfulLoginStartsABrowserSessionStoredAsADigest() async throws {
        try await withTestApp { app in
            let user = try await User.create(username: "leia", on: app)
            let browser = BrowserClient(app.client)
            let answer = try await browser.signIn("leia", at: "/login?return_to=/somewhere%3Fa%3D1")
            XCTAssertEqual(answer.status, .seeOther)
            XCTAssertEqual(answer.location, "/somewhere?a=1")
            answer.assertNoStore()
            let value = try XCTUnwrap(browser.cookies["til_session"])
            XCTAssertNil(browser.cookies["til_login"], "the pre-login cookie is removed")
            let rows = try await app.til.db.query("""
                SELECT kind, browser_digest, scopes, user_id, expires_at - created_at AS lifetime FROM sessions WHERE user_id = \(user.id)
                """)
            XCTAssertEqual(rows.count, 1)
            XCTAssertEqual(try rows[0].decode(column: "kind", as: String.self), "browser")
            XCTAssertEqual(try rows[0].decode(column: "browser_digest", as: String.self), SHA256.hex(of: value))
            XCTAssertEqual(try rows[0].decode(column: "scopes", as: String.self), "")
            let stored = try await app.til.db.query("SELECT count(*) AS n FROM sessions WHERE browser_digest = \(value)")
            XCTAssertEqual(try stored[0].decode(column: "n", as: Int64.self), 0, "the cookie itself is never stored")
            // Signed in: /login says so, and goes straight on to a return_to.
            let again = try await browser.get("/login")
            XCTAssertEqual(again.status, .ok)
            XCTAssertTrue(again.bodyString.contains("leia"))
            let onward = try await browser.get("/login?return_to=/next")
            XCTAssertEqual(onward.location, "/next")
            // The cookie is no bearer token.
            let asBearer = try await app.client.send(.get, "/api/users/me", auth: .bearer(value))
            XCTAssertEqual(asBearer.status, .unauthorized)
        }
    }

    func testAWrongPasswordAndAnUnknownUserAnswerAlikeOnThePage() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "han", on: app)
            var answers: [TestResponse] = []
            for username in ["han", "nobody-\(UUID())"] {
                let browser = BrowserClient(app.client)
                let answer = try await browser.signIn(username, "wrong-password")
                XCTAssertEqual(answer.status, .unauthorized)
                answer.assertPageHeaders()
                XCTAssertNil(answer.headers["WWW-Authenticate"], "a page, not a Basic challenge")
                XCTAssertTrue(answer.bodyString.contains(#"role="alert""#))
                XCTAssertTrue(answer.bodyString.contains("Wrong username or password."))
                XCTAssertNil(browser.cookies["til_session"])
                let form = try HTMLForm.only(in: answer)
                XCTAssertEqual(form.value("username"), username, "the username is kept")
                XCTAssertEqual(form.value("password"), "", "the password is not")
                answers.append(answer)
            }
            let failures = try await app.til.db.query("SELECT count(*) AS n FROM login_failures")
            XCTAssertEqual(try failures[0].decode(column: "n", as: Int64.self), 2, "both counted by the login throttle")
            // Apart from the username typed and the token, the two pages are the same bytes.
            func normalized(_ response: TestResponse) -> String {
                response.bodyString
                    .replacingOccurrences(of: #"name="username" value="[^"]*""#, with: "", options: .regularExpression)
                    .replacingOccurrences(of: #"(value|content)="[0-9a-f]{64}""#, with: "", options: .regularExpression)
            }
            XCTAssertEqual(normalized(answers[0]), normalized(answers[1]), "the page never says whether the username exists")
        }
    }
}

extension TestResponse {
    func assertNoStore(file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(headers["Cache-Control"], "no-store", file: file, line: line)
        XCTAssertEqual(headers["Referrer-Policy"], "no-referrer", file: file, line: line)
    }
}
