import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The account page's personal access tokens: listed (never a value), made with the section's
/// form (the value shown on its own page, once), revoked with a button; each form behind the
/// browser session and its CSRF token.
final class AccountTokensPageTests: XCTestCase {
    func testTheSectionListsTheUsersTokensAndOffersTheForm() async throws {
        try await withTestApp(settings: ["PAT_MAX_TTL": "864000"]) { app in
            let user = try await User.create(username: "lena-\(UUID().uuidString.prefix(6).lowercased())", on: app)
            let other = try await User.create(on: app)
            let login = try await app.client.session(user.username)
            let mine = try await app.client.pat("Deploy <script>", scopes: ["acronyms:write", "categories:write"], bearer: login.value)
            let theirs = try await app.client.pat("Not yours", bearer: try await app.client.session(other.username).value)
            let page = try await BrowserClient(app.client).accountPage(signingInAs: user.username)
            let html = page.bodyString
            for fragment in [
                #"<h2 id="tokens-heading">Personal access tokens</h2>"#,
                #"<p class="item-title" id="token-\#(mine.id.uuidString.lowercased())">Deploy &lt;script&gt;</p>"#,
                "<code>acronyms:write</code> <code>categories:write</code> · expires <time datetime=\"\(mine.expiresAt)\">",
                "never used",
                #"action="/account/tokens/\#(mine.id.uuidString.lowercased())/revoke""#,
                #"aria-describedby="token-\#(mine.id.uuidString.lowercased())""#,
                #"<form method="post" action="/account/tokens">"#,
                #"<input type="checkbox" id="token-scope-users-write" name="scope" value="users:write">"#,
                #"<option value="604800" selected>7 days</option>"#,
            ] {
                XCTAssertTrue(html.contains(fragment), "\(fragment) in \(html)")
            }
            XCTAssertFalse(html.contains("Not yours"), "another user's token")
            XCTAssertFalse(html.contains(theirs.id.uuidString.lowercased()))
            XCTAssertFalse(html.contains(mine.token), "never a value")
            XCTAssertFalse(html.contains("30 days"), "no expiry past PAT_MAX_TTL is offered")
            XCTAssertFalse(html.contains("value=\"account\""), "no scope a token may not hold is offered")
        }
    }

    func testTheFormMakesATokenShownOnceThatWorks() async throws {
        try await withTestApp { app in
            let (browser, page) = try await app.accountBrowser("mika-\(UUID().uuidString.prefix(6).lowercased())")
            let csrf = try XCTUnwrap(try HTMLForm.posting(to: "/account/tokens", in: page).value("csrf_token"))
            let shown = try await browser.post("/account/tokens", [
                ("csrf_token", csrf), ("name", "Nightly import"), ("scope", "acronyms:write"), ("scope", "categories:write"),
                ("expires_in", "2592000"),
            ])
            XCTAssertEqual(shown.status.code, 200, shown.bodyString)
            shown.assertPageHeaders()
            XCTAssertEqual(shown.headers["Cache-Control"], "no-store")
            let value = try XCTUnwrap(shown.bodyString.firstMatch(of: /value="(til_pat_[A-Za-z0-9_-]{43})"/)?.1).description
            XCTAssertTrue(shown.bodyString.contains("this is the only time TIL shows it"), shown.bodyString)
            let write = try await app.client.send(.post, "/api/categories", json: ["name": "From the page"], auth: .bearer(value))
            XCTAssertEqual(write.status.code, 200, write.bodyString)
            let rows = try await app.til.db.query("""
                SELECT name, scopes, extract(epoch FROM expires_at - created_at)::int8 AS lifetime FROM sessions WHERE kind = 'pat'
                """)
            XCTAssertEqual(try rows.map { try $0.decode(column: "name", as: String.self) }, ["Nightly import"])
            XCTAssertEqual(try rows.first?.decode(column: "scopes", as: String.self), "acronyms:write categories:write")
            let lifetime = try XCTUnwrap(rows.first).decode(column: "lifetime", as: Int64.self)
            XCTAssertEqual(Double(lifetime), 2_592_000, accuracy: 1)
            let again = try await browser.get("/account")
            XCTAssertFalse(again.bodyString.contains(value), "shown once: the account page never shows it")
            XCTAssertTrue(again.bodyString.contains("Nightly import"))
        }
    }

    func testTheRevokeButtonEndsTheTokenWithANotice() async throws {
        try await withTestApp { app in
            let username = "olga-\(UUID().uuidString.prefix(6).lowercased())"
            let (browser, _) = try await app.accountBrowser(username)
            let login = try await app.client.session(username)
            let pat = try await app.client.pat(bearer: login.value)
            let page = try await browser.get("/account")
            let revoke = try HTMLForm.posting(to: "/account/tokens/\(pat.id.uuidString.lowercased())/revoke", in: page)
            let answer = try await browser.submit(revoke)
            XCTAssertEqual(answer.location, "/account?notice=token-revoked", answer.bodyString)
            let status = try await app.client.meStatus(pat.token)
            XCTAssertEqual(status, 401)
            let shown = try await browser.get("/account?notice=token-revoked")
            XCTAssertTrue(shown.bodyString.contains("The personal access token was revoked."), shown.bodyString)
            let twice = try await browser.submit(revoke)
            XCTAssertEqual(twice.status.code, 404, "gone: the error page")
        }
    }

    func testWithoutTheCSRFTokenOrSignedOutNothingIsMade() async throws {
        try await withTestApp { app in
            let username = "piet-\(UUID().uuidString.prefix(6).lowercased())"
            let (browser, _) = try await app.accountBrowser(username)
            let forged = try await browser.post("/account/tokens", [("name", "forged"), ("scope", "acronyms:write"), ("expires_in", "60")])
            XCTAssertEqual(forged.status.code, 403, forged.bodyString)
            let wrong = try await browser.post("/account/tokens", [
                ("csrf_token", "x"), ("name", "forged"), ("scope", "acronyms:write"), ("expires_in", "60"),
            ])
            XCTAssertEqual(wrong.status.code, 403, wrong.bodyString)
            let stranger = BrowserClient(app.client)
            let signedOut = try await stranger.post("/account/tokens", [("name", "x"), ("expires_in", "60")])
            XCTAssertEqual(signedOut.status.code, 403, "no cookie, no CSRF token: \(signedOut.bodyString)")
            let made = try await app.number("SELECT count(*)::int AS n FROM sessions WHERE kind = 'pat'")
            XCTAssertEqual(made, 0)
        }
    }

    /// The page's mistakes are the API's: the error page names the field.
    func testBadFieldsAreErrorPagesNamingTheField() async throws {
        try await withTestApp { app in
            let (browser, page) = try await app.accountBrowser("quin-\(UUID().uuidString.prefix(6).lowercased())")
            let csrf = try XCTUnwrap(try HTMLForm.posting(to: "/account/tokens", in: page).value("csrf_token"))
            let cases: [([(String, String)], String)] = [
                ([("name", ""), ("expires_in", "60")], "name"),
                ([("name", "ok"), ("expires_in", "forever")], "expiresIn"),
                ([("name", "ok"), ("expires_in", "99999999999")], "expiresIn"),
                ([("name", "ok"), ("scope", "account"), ("expires_in", "60")], "account"),
                ([("name", "ok"), ("scope", "nonsense"), ("expires_in", "60")], "nonsense"),
                ([("name", "ok"), ("name", "twice"), ("expires_in", "60")], "name"),
                ([("name", "ok"), ("expires_in", "60")] + Array(repeating: ("scope", "acronyms:write"), count: 17), "scope"),
            ]
            for (fields, named) in cases {
                let answer = try await browser.post("/account/tokens", [("csrf_token", csrf)] + fields.map { (name: $0.0, value: $0.1) })
                XCTAssertEqual(answer.status.code, 400, "\(fields): \(answer.bodyString)")
                XCTAssertTrue(answer.bodyString.contains(named), "\(fields): \(answer.bodyString)")
            }
            let nul = try await browser.send(
                .post, "/account/tokens", body: Array("csrf_token=\(csrf)&name=a%00b&expires_in=60".utf8),
                contentType: "application/x-www-form-urlencoded")
            XCTAssertEqual(nul.status.code, 400, nul.bodyString)
            let made = try await app.number("SELECT count(*)::int AS n FROM sessions WHERE kind = 'pat'")
            XCTAssertEqual(made, 0)
        }
    }
}
