import AppTesting
import Foundation
import OneTimePasswords
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The code step inside an OAuth authorization request, raced, and across two processes.
final class SecondStepFlowTests: ServerProcessTestCase {
    /// The authorization-code flow through a TOTP sign-in: the step names the client and lets
    /// its redirect through the CSP, the right code continues the authorization request, and
    /// the code it ends with buys tokens.
    func testTheAuthorizationCodeFlowContinuesThroughTheCodeStep() async throws {
        try await withMFAApp { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            let registered = try await app.oauthClient(["token_endpoint_auth_method": "none", "grant_types": ["authorization_code"]])
            let client = StoredClient(id: registered.id, redirectURIs: ["https://app.example/cb"])
            let pkce = PKCEPair()
            let browser = BrowserClient(app.client)
            let login = try await browser.get(AuthorizationFlowTests.authorize(client, pkce))
            let step = try await browser.submit(try HTMLForm.only(in: login), ["username": enrolled.user.username, "password": "password"])
            XCTAssertEqual(step.status, .ok, step.bodyString)
            XCTAssertTrue(step.bodyString.contains(#"<p class="client">for <strong>Test app</strong></p>"#), step.bodyString)
            XCTAssertTrue(step.headers["Content-Security-Policy"]?.contains("form-action 'self' https://app.example") == true)
            let onward = try await browser.submit(try HTMLForm.posting(to: "/login/mfa", in: step), ["code": enrolled.code(at: clock)])
            let authorize = try XCTUnwrap(onward.location)
            XCTAssertTrue(authorize.hasPrefix("/oauth/authorize?"), authorize)
            let consent = try await browser.get(authorize)
            let approved = try await browser.submit(try HTMLForm.only(in: consent), clicking: ("decision", "approve"))
            let query = try approved.redirectQuery()
            XCTAssertEqual(query["state"], "xyz")
            let token = try await app.client.postForm("/oauth/token", [
                ("grant_type", "authorization_code"), ("code", try XCTUnwrap(query["code"])), ("redirect_uri", "https://app.example/cb"),
                ("code_verifier", pkce.verifier), ("client_id", client.id),
            ])
            XCTAssertEqual(token.status, .ok, token.bodyString)
            let access = try XCTUnwrap(try token.jsonObject()["access_token"] as? String)
            let me = try await app.client.send(.get, "/api/users/me", auth: .bearer(access))
            XCTAssertEqual(try me.jsonObject()["id"] as? String, enrolled.user.id.uuidString)
        }
    }

    /// One step's form posted twice at once with the right code (a double click): one
    /// sign-in, the other post finds the mfaToken spent.
    func testOneStepPostedTwiceAtOnceSignsInOnce() async throws {
        try await withMFAApp(settings: ["LOGIN_MAX_FAILURES": "20"]) { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            let browser = BrowserClient(app.client)
            let step = try await browser.signIn(enrolled.user.username)
            let form = try HTMLForm.posting(to: "/login/mfa", in: step)
            let statuses = try await browser.submitTwiceAtOnce(form, ["code": enrolled.code(at: clock)])
            XCTAssertEqual(statuses, [303, 401])
            let sessions = try await app.number("SELECT count(*)::int AS n FROM sessions WHERE kind = 'browser'")
            XCTAssertEqual(sessions, 1)
        }
    }

    /// A step shown by process A is completed on process B (the mfaToken and the pre-login
    /// cookie live in PostgreSQL and the browser, not in a process); the same code then fails
    /// on A (its step is used), and the session B started is A's too.
    func testAStepShownByOneProcessIsCompletedOnAnotherAndItsCodeIsThenUsedUp() async throws {
        let enrolled = try await withTestApp { app in try await app.enrolledUser(clock: TestClock(Date())) }
        servers = try await ServerProcess.healthy(2, settings: ["LOGIN_MAX_FAILURES": "20"])
        let onA = BrowserClient(servers[0].client), onB = BrowserClient(servers[1].client)
        let step = try await onA.signIn(enrolled.user.username)
        onB.setCookie("til_login", onA.cookies["til_login"])
        let code = TOTP(secret: enrolled.secret).code(at: Date().addingTimeInterval(30))
        let done = try await onB.submit(try HTMLForm.posting(to: "/login/mfa", in: step), ["code": code])
        XCTAssertEqual(done.location, "/account", done.bodyString)
        onA.setCookie("til_session", onB.cookies["til_session"])
        let account = try await onA.get("/account")
        XCTAssertTrue(account.bodyString.contains("This browser"), "A knows the session B started")
        let other = BrowserClient(servers[0].client)
        let again = try await other.signIn(enrolled.user.username)
        let replay = try await other.submit(try HTMLForm.posting(to: "/login/mfa", in: again), ["code": code])
        XCTAssertEqual(replay.status, .unauthorized, "the code B accepted is used up on A too")
    }
}
