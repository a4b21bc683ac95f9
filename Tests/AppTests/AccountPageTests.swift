import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// `GET /account`: behind the browser session, with the page headers, a CSRF token in every
/// form and in the head, and the user's sessions and applications listed.
final class AccountPageTests: XCTestCase {
    func testSignedOutTheAccountPageIsTheSignInFormReturningThere() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "mara", on: app)
            let browser = BrowserClient(app.client)
            let page = try await browser.get("/account")
            XCTAssertEqual(page.status, .ok)
            page.assertPageHeaders()
            let form = try HTMLForm.only(in: page)
            XCTAssertEqual(form.action, "/login")
            XCTAssertEqual(form.value("return_to"), "/account")
            let signedIn = try await browser.submit(form, ["username": "mara", "password": "password"])
            XCTAssertEqual(signedIn.location, "/account")
            let account = try await browser.get("/account")
            XCTAssertTrue(account.bodyString.contains("Signed in as <strong>mara</strong>"), account.bodyString)
        }
    }

    func testThePageIsAccessibleWithTheTokenOfTheSessionInEveryFormAndInTheHead() async throws {
        try await withTestApp { app in
            let (browser, page) = try await app.accountBrowser("ines")
            page.assertPageHeaders()
            XCTAssertNotNil(page.headers["Set-Cookie"].map { $0.contains("til_session=") }, "the session's expiry slides")
            let html = page.bodyString
            let token = CSRFToken.token(boundTo: try XCTUnwrap(browser.cookies["til_session"]))
            XCTAssertEqual(page.csrfMeta, token)
            for fragment in [
                "<main class=\"wide\">", "<h1>Your account</h1>", #"<section aria-labelledby="sessions-heading">"#,
                #"<h2 id="sessions-heading">Sessions</h2>"#, #"<h2 id="apps-heading">Applications</h2>"#,
                #"<h2 id="totp-heading">"#, #"<h2 id="passkeys-heading">Passkeys</h2>"#, "This browser",
            ] {
                XCTAssertTrue(html.contains(fragment), "\(fragment) in \(html)")
            }
            XCTAssertFalse(html.contains("style="), "no inline style")
            XCTAssertFalse(html.contains("<a href=\"/account/"), "actions are buttons, never links")
            let forms = HTMLForm.all(in: html)
            XCTAssertGreaterThanOrEqual(forms.count, 2, "sign out, and the session's own button")
            for form in forms {
                XCTAssertEqual(form.method, "post", "\(form.action ?? "")")
                XCTAssertEqual(form.value("csrf_token"), token, "\(form.action ?? "")")
            }
            XCTAssertNotNil(forms.first { $0.action == "/logout" }, "a way out")
        }
    }

    func testTheSessionsAndApplicationsOfTheUserAreListedAndNoOneElses() async throws {
        try await withTestApp { app in
            let user = try await User.create(username: "tomas", on: app)
            _ = try await User.create(username: "other", on: app)
            let cli = try await app.client.session("tomas", headers: ["User-Agent": "til/1.4 (Linux)"])
            _ = try await app.client.session("other", headers: ["User-Agent": "curl/8.5.0"])
            let client = try await app.oauthClient(["client_name": "Notes App"])
            _ = try await app.grantedAccessToken(for: client, user: user.id)
            let browser = BrowserClient(app.client)
            let html = try await browser.accountPage(signingInAs: "tomas").bodyString
            XCTAssertTrue(html.contains("til 1.4 (API login)"), html)
            XCTAssertTrue(html.contains("til/1.4 (Linux)"), "the full agent beside its summary")
            XCTAssertTrue(html.contains("Notes App (application)"), "the client's session")
            XCTAssertFalse(html.contains("curl"), "another user's session is not listed")
            XCTAssertTrue(html.contains(#"action="/account/sessions/\#(cli.id.uuidString.lowercased())/end""#), html)
            XCTAssertTrue(html.contains(#"action="/account/apps/\#(client.id)/revoke""#), html)
            XCTAssertTrue(html.contains("<li>Create, change and delete acronyms, and link them to categories, in your name <code>acronyms:write</code></li>"), html)
            XCTAssertTrue(html.contains("<time datetime=\""), "dates are machine-readable too")
            // Each button is described by the row it acts on.
            XCTAssertTrue(html.contains(#"aria-describedby="session-\#(cli.id.uuidString.lowercased())""#), html)
        }
    }

    func testAnUnknownNoticeIsIgnoredAndAKnownOneIsAFixedSentence() async throws {
        try await withTestApp { app in
            let (browser, _) = try await app.accountBrowser("nour")
            let forged = try await browser.get("/account?notice=%3Cscript%3Ealert(1)%3C%2Fscript%3E")
            XCTAssertEqual(forged.status, .ok)
            XCTAssertFalse(forged.bodyString.contains("role=\"status\""))
            XCTAssertFalse(forged.bodyString.contains("alert(1)"))
            let known = try await browser.get("/account?notice=session-ended")
            XCTAssertTrue(known.bodyString.contains(#"<p class="notice" role="status">The session has ended.</p>"#))
            let twice = try await browser.get("/account?notice=app-revoked&notice=session-ended")
            XCTAssertEqual(twice.status, .badRequest, "a field sent twice")
            twice.assertPageHeaders()
        }
    }

    func testSigningInWithoutReturnToLeadsToTheAccountPageAndWithItStillGoesThere() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "saoirse", on: app)
            let browser = BrowserClient(app.client)
            let plain = try await browser.signIn("saoirse")
            XCTAssertEqual(plain.location, "/account")
            for page in ["/login", "/logout"] {
                let signOut = try await browser.get(page)
                XCTAssertTrue(signOut.bodyString.contains(#"<a href="/account">Your account</a>"#), "\(page): \(signOut.bodyString)")
            }
            let other = BrowserClient(app.client)
            let onward = try await other.signIn("saoirse", at: "/login?return_to=/device")
            XCTAssertEqual(onward.location, "/device")
        }
    }
}
