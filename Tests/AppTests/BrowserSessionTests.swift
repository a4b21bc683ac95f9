import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// A browser session lives as a `sessions` row of kind `browser`: every way a session ends
/// ends it, its idle lifetime slides within `SESSION_MAX_LIFETIME`, and signing out takes a
/// confirmed, CSRF-protected POST.
final class BrowserSessionTests: XCTestCase {
    /// Fails unless the browser's cookie proves a session (`/login` then shows who, no form
    /// to sign in) exactly when `expected`.
    private func assertSignedIn(
        _ browser: BrowserClient, _ expected: Bool, _ message: String = "", file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        let page = try await browser.get("/login")
        let signedIn = try HTMLForm.only(in: page, file: file, line: line).value("username") == nil
        XCTAssertEqual(signedIn, expected, message, file: file, line: line)
    }

    func testSignOutAsksFirstAndItsPostNeedsTheSessionsToken() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "lando", on: app)
            for path in ["/logout", "/oauth/logout"] {
                let browser = BrowserClient(app.client)
                let nobody = try await browser.get(path)
                XCTAssertEqual(nobody.status, .ok)
                XCTAssertTrue(nobody.bodyString.contains("not signed in"))
                try await browser.signIn("lando")
                let cookie = try XCTUnwrap(browser.cookies["til_session"])
                let page = try await browser.get(path)
                page.assertPageHeaders()
                let form = try HTMLForm.only(in: page)
                XCTAssertEqual(form.action, path)
                XCTAssertEqual(form.value("csrf_token"), CSRFToken.token(boundTo: cookie))
                try await assertSignedIn(browser, true, "GET signs nobody out")
                let forged = try await browser.submit(form, ["csrf_token": CSRFToken.token(boundTo: "another")])
                XCTAssertEqual(forged.status, .forbidden)
                let noToken = try await browser.post(path, [])
                if path == "/logout" {
                    XCTAssertEqual(noToken.status, .forbidden)
                } else {
                    // RP-initiated logout: a POST without a token is a protocol request, answered by the confirmation.
                    XCTAssertEqual(noToken.status, .ok)
                    XCTAssertEqual(try HTMLForm.only(in: noToken).value("csrf_token"), CSRFToken.token(boundTo: cookie))
                }
                try await assertSignedIn(browser, true, "a forged sign-out ends nothing")
                let done = try await browser.submit(form)
                XCTAssertEqual(done.status, .ok)
                XCTAssertTrue(done.bodyString.contains("signed out"))
                XCTAssertNil(browser.cookies["til_session"], "the cookie is removed")
                browser.setCookie("til_session", cookie)
                try await assertSignedIn(browser, false, "the session is over, not only its cookie")
                let replay = try await browser.submit(form)
                XCTAssertEqual(replay.status, .ok, "signing out twice is harmless")
            }
        }
    }

    func testLogoutAllPasswordChangeAndTheSessionsRouteEndBrowserSessions() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "chewie", on: app)
            let token = try await app.client.session("chewie").value
            // DELETE /api/users/me/sessions/:id
            let deleted = BrowserClient(app.client)
            try await deleted.signIn("chewie")
            // The sessions list shows it, with no scopes and the cookie's expiry for both dates.
            let list = try await app.client.send(.get, "/api/users/me/sessions", auth: .bearer(token))
            let sessions = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(list.body)) as? [[String: Any]], list.bodyString)
            XCTAssertEqual(sessions.count, 2, "the Basic login and the browser session")
            let browserEntry = try XCTUnwrap(sessions.first { $0["kind"] as? String == "browser" }, list.bodyString)
            XCTAssertEqual(browserEntry["scopes"] as? [String], [])
            XCTAssertNil(browserEntry["clientName"])
            XCTAssertEqual(browserEntry["expiresAt"] as? String, browserEntry["refreshExpiresAt"] as? String)
            let rows = try await app.til.db.query("SELECT id FROM sessions WHERE kind = 'browser' AND revoked_at IS NULL")
            let id = try rows[0].decode(column: "id", as: UUID.self)
            let delete = try await app.client.send(.delete, "/api/users/me/sessions/\(id)", auth: .bearer(token))
            XCTAssertEqual(delete.status, .noContent)
            try await assertSignedIn(deleted, false)
            // POST /api/users/logout-all
            let everywhere = BrowserClient(app.client)
            try await everywhere.signIn("chewie")
            try await assertSignedIn(everywhere, true)
            let logoutAll = try await app.client.send(.post, "/api/users/logout-all", auth: .bearer(token))
            XCTAssertEqual(logoutAll.status, .noContent)
            try await assertSignedIn(everywhere, false)
            // PUT /api/users/me/password
            let changed = BrowserClient(app.client)
            try await changed.signIn("chewie")
            let fresh = try await app.client.session("chewie").value
            let change = try await app.client.send(
                .put, "/api/users/me/password", json: ["currentPassword": "password", "newPassword": "new-password-1"], auth: .bearer(fresh))
            XCTAssertEqual(change.status, .noContent)
            try await assertSignedIn(changed, false)
            let withNew = BrowserClient(app.client)
            let signedIn = try await withNew.signIn("chewie", "new-password-1")
            XCTAssertEqual(signedIn.status, .seeOther)
        }
    }

    func testASecondLoginInTheSameBrowserGetsANewSessionAndEndsTheOld() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "jyn", on: app)
            let browser = BrowserClient(app.client)
            try await browser.signIn("jyn")
            let first = try XCTUnwrap(browser.cookies["til_session"])
            // Signed in, /login shows no form: sign in again through another page's form, carrying
            // the old cookie (as prompt=login does).
            let other = BrowserClient(app.client)
            let form = try HTMLForm.only(in: try await other.get("/login"))
            browser.setCookie("til_login", other.cookies["til_login"])
            let again = try await browser.submit(form, ["username": "jyn", "password": "password"])
            XCTAssertEqual(again.status, .seeOther)
            let second = try XCTUnwrap(browser.cookies["til_session"])
            XCTAssertNotEqual(first, second, "a new identifier at every login")
            let old = BrowserClient(app.client)
            old.setCookie("til_session", first)
            try await assertSignedIn(old, false, "the earlier session of this browser ended")
            try await assertSignedIn(browser, true)
        }
    }

    func testTheIdleLifetimeSlidesWithinTheSessionsMaximum() async throws {
        try await withTestApp(settings: ["BROWSER_SESSION_IDLE": "3600", "SESSION_MAX_LIFETIME": "5400"]) { app in
            _ = try await User.create(username: "cassian", on: app)
            let browser = BrowserClient(app.client)
            let login = try await browser.signIn("cassian")
            let setCookie = try XCTUnwrap(login.headers.values(for: "Set-Cookie").first { $0.hasPrefix("til_session=") })
            XCTAssertTrue(setCookie.contains("Max-Age=3600") || setCookie.contains("Max-Age=3599"), setCookie)
            // Unused for longer than the idle lifetime: over.
            try await app.til.db.execute("UPDATE sessions SET expires_at = now() - interval '1 second' WHERE kind = 'browser'")
            try await assertSignedIn(browser, false)
            // Used after a minute: slides, but never past created_at + SESSION_MAX_LIFETIME.
            try await browser.signIn("cassian")
            try await app.til.db.execute("""
                UPDATE sessions SET created_at = now() - interval '4000 seconds', last_used_at = now() - interval '120 seconds'
                WHERE kind = 'browser' AND revoked_at IS NULL AND expires_at > now()
                """)
            try await assertSignedIn(browser, true)
            let rows = try await app.til.db.query("""
                SELECT extract(epoch FROM expires_at - created_at)::int8 AS lifetime, expires_at = refresh_expires_at AS same
                FROM sessions WHERE kind = 'browser' AND revoked_at IS NULL AND expires_at > now()
                """)
            // Unslid it would end at 4000 + 3600 s; the cap is 5400 s after the login (whole seconds).
            XCTAssertTrue((5399...5400).contains(try rows[0].decode(column: "lifetime", as: Int64.self)), "capped at the maximum")
            XCTAssertTrue(try rows[0].decode(column: "same", as: Bool.self), "both dates are the cookie's expiry")
        }
    }

    func testAnHTTPSIssuerMakesTheCookiesSecureWithTheHostPrefix() async throws {
        try await withTestApp(settings: ["ISSUER": "https://til.example"]) { app in
            _ = try await User.create(username: "mando", on: app)
            let browser = BrowserClient(app.client)
            let page = try await browser.get("/login")
            XCTAssertTrue(page.headers["Set-Cookie"]!.hasPrefix("__Host-til_login="))
            XCTAssertTrue(page.headers["Set-Cookie"]!.hasSuffix("; Secure"))
            let login = try await browser.submit(try HTMLForm.only(in: page), ["username": "mando", "password": "password"])
            let session = try XCTUnwrap(login.headers.values(for: "Set-Cookie").first { $0.hasPrefix("__Host-til_session=") })
            for attribute in ["Path=/", "HttpOnly", "SameSite=Lax", "Secure"] { XCTAssertTrue(session.contains(attribute), session) }
            XCTAssertNotNil(browser.cookies["__Host-til_session"])
            // The unprefixed name proves nothing on an https issuer (a neighbour could have set it).
            let plain = BrowserClient(app.client)
            plain.setCookie("til_session", browser.cookies["__Host-til_session"])
            let shown = try await plain.get("/login")
            XCTAssertNotNil(try HTMLForm.only(in: shown).value("username"), "signed out under the unprefixed name")
            let client = try await StoredClient.create(trusted: true, on: app)
            let answer = try await browser.get(AuthorizationFlowTests.authorize(client, PKCEPair()))
            XCTAssertEqual(try answer.redirectQuery()["iss"], "https://til.example")
        }
    }

    /// Two processes share one issuer (as `scripts/cluster.sh` gives them the balancer's URL): a
    /// browser signs in on A, is asked for consent by B, approves on A, and signs out on B.
    func testABrowserSessionStartedOnOneProcessWorksOnAnother() async throws {
        let client = try await withTestApp { app in try await StoredClient.create(on: app) }
        let environment = try ServerProcess.testEnvironment(["BCRYPT_COST": "4", "LOG_LEVEL": "warning", "ISSUER": "http://127.0.0.1:9"])
        let a = try ServerProcess(environment: environment)
        let b = try ServerProcess(environment: environment)
        do {
            try await a.waitUntilHealthy()
            try await b.waitUntilHealthy()
            let onA = BrowserClient(a.client)
            let signedIn = try await onA.signIn("admin")
            XCTAssertEqual(signedIn.status, .seeOther)
            let onB = BrowserClient(b.client)
            for (name, value) in onA.cookies { onB.setCookie(name, value) }
            try await assertSignedIn(onB, true, "B knows A's browser session")
            let consent = try await onB.get(AuthorizationFlowTests.authorize(client, PKCEPair()))
            let approved = try await onA.submit(try HTMLForm.only(in: consent), clicking: ("decision", "approve"))
            let query = try approved.redirectQuery()
            XCTAssertNotNil(query["code"], "A accepts the consent form B showed")
            XCTAssertEqual(query["iss"], "http://127.0.0.1:9")
            let signOut = try HTMLForm.only(in: try await onB.get("/logout"))
            let signedOut = try await onB.submit(signOut)
            XCTAssertEqual(signedOut.status, .ok, "B signs out with the token A's session binds")
            try await assertSignedIn(onA, false, "and A sees it ended")
        } catch {
            print("A:\n\(a.output)\nB:\n\(b.output)")
            await a.stop(); await b.stop()
            throw error
        }
        await a.stop(); await b.stop()
    }
}
