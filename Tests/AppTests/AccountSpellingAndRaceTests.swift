import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The account page with Unicode names and markup in what others wrote (a client's name, a
/// user agent), its buttons raced, and its forms posted to a second til-server process.
final class AccountSpellingAndRaceTests: ServerProcessTestCase {
    func testUnicodeAndMarkupAreShownEscapedAndClientIDsStayOnePathSegment() async throws {
        try await withTestApp { app in
            let user = try await User.create(username: "zoë🦊", on: app)
            _ = try await app.client.session("zoë🦊", headers: ["User-Agent": "<img src=x onerror=alert(1)> Ünïcødé/1.0"])
            let client = try await StoredClient.create(id: "app/ü?x=1", name: "Notes <b>📝</b> \u{202E}evil", on: app)
            try await app.til.db.execute(
                "INSERT INTO oauth_grants (user_id, client_id, scopes) VALUES (\(user.id), \(client.id), 'acronyms:write')")
            let browser = BrowserClient(app.client)
            let page = try await browser.accountPage(signingInAs: "zoë🦊")
            let html = page.bodyString
            XCTAssertTrue(html.contains("Signed in as <strong>zoë🦊</strong>"), html)
            XCTAssertTrue(html.contains("&lt;img src=x onerror=alert(1)&gt; Ünïcødé/1.0"), html)
            XCTAssertFalse(html.contains("<img"), "the agent's markup is text")
            XCTAssertTrue(html.contains("Notes &lt;b&gt;📝&lt;/b&gt; \u{202E}evil"), html)
            let action = "/account/apps/app%2F%C3%BC%3Fx%3D1/revoke"
            let revoked = try await browser.submit(try HTMLForm.posting(to: action, in: page))
            XCTAssertEqual(revoked.location, "/account?notice=app-revoked", revoked.bodyString)
            let grants = try await app.til.db.query("SELECT count(*) AS n FROM oauth_grants WHERE user_id = \(user.id)")
            XCTAssertEqual(try grants[0].decode(column: "n", as: Int64.self), 0)
            // A full-width or look-alike spelling of a session id is no session id.
            let token = try XCTUnwrap(page.csrfMeta)
            let fullWidth = try await browser.post("/account/sessions/\u{FF10}\(UUID().uuidString.dropFirst())/end", [("csrf_token", token)])
            XCTAssertEqual(fullWidth.status, .badRequest)
        }
    }

    /// One End button clicked twice at once (two tabs): the session ends once, one answer
    /// says so and the other is the not-found page; one audit line.
    func testOneSessionEndedTwiceAtOnceEndsOnce() async throws {
        let capture = LogCapture()
        try await withTestApp(logger: capture.logger()) { app in
            _ = try await User.create(username: "hana", on: app)
            let api = try await app.client.session("hana")
            let browser = BrowserClient(app.client)
            let page = try await browser.accountPage(signingInAs: "hana")
            let form = try HTMLForm.posting(to: "/account/sessions/\(api.id.uuidString.lowercased())/end", in: page)
            let statuses = try await browser.submitTwiceAtOnce(form)
            XCTAssertEqual(statuses, [303, 404])
            XCTAssertEqual(capture.lines.filter { $0.names("session.ended") }.count, 1)
        }
    }

    /// The page shown by process A lists a session B started; its End button posted to B ends
    /// it, and A's page no longer lists it. A revoke on A is seen by B's page.
    func testTheAccountPageAndItsFormsAcrossTwoProcesses() async throws {
        _ = try await withTestApp { app in
            let user = try await User.create(username: "ivo", on: app)
            try await app.til.db.execute("""
                INSERT INTO oauth_clients (id, name, auth_method, redirect_uris, grant_types, scope)
                VALUES ('shared-app', 'Shared App', 'none', 'https://app.example/cb', 'authorization_code', 'acronyms:write')
                """)
            try await app.til.db.execute(
                "INSERT INTO oauth_grants (user_id, client_id, scopes) VALUES (\(user.id), 'shared-app', 'acronyms:write')")
        }
        servers = try await ServerProcess.healthy(2, settings: ["ISSUER": "http://127.0.0.1:9"])
        let onA = BrowserClient(servers[0].client), onB = BrowserClient(servers[1].client)
        let api = try await servers[1].client.session("ivo")
        let page = try await onA.accountPage(signingInAs: "ivo")
        let action = "/account/sessions/\(api.id.uuidString.lowercased())/end"
        let form = try HTMLForm.posting(to: action, in: page)
        onB.setCookie("til_session", onA.cookies["til_session"])
        let ended = try await onB.submit(form)
        XCTAssertEqual(ended.location, "/account?notice=session-ended")
        let meOnB = try await servers[1].client.meStatus(api.value)
        XCTAssertEqual(meOnB, 401)
        let pageOnA = try await onA.get("/account")
        XCTAssertFalse(pageOnA.bodyString.contains(action))
        let revoked = try await onA.submit(try HTMLForm.posting(to: "/account/apps/shared-app/revoke", in: pageOnA))
        XCTAssertEqual(revoked.status, .seeOther)
        let pageOnB = try await onB.get("/account")
        XCTAssertTrue(pageOnB.bodyString.contains("No applications have access"), pageOnB.bodyString)
    }
}
