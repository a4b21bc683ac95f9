import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The account page's buttons: ending a session, revoking an application. Each checks the
/// CSRF token of the session, acts only on the user's own, and refuses bad input with a page.
final class AccountFormTests: XCTestCase {
    func testEndingAnotherSessionRevokesItsTokensAndSaysSo() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "ayla", on: app)
            let api = try await app.client.session("ayla")
            let browser = BrowserClient(app.client)
            let page = try await browser.accountPage(signingInAs: "ayla")
            let form = try HTMLForm.posting(to: "/account/sessions/\(api.id.uuidString.lowercased())/end", in: page)
            let ended = try await browser.submit(form)
            XCTAssertEqual(ended.status, .seeOther)
            XCTAssertEqual(ended.location, "/account?notice=session-ended")
            ended.assertNoStore()
            let status = try await app.client.meStatus(api.value)
            XCTAssertEqual(status, 401, "the session's access token is dead")
            let after = try await browser.get(try XCTUnwrap(ended.location))
            XCTAssertTrue(after.bodyString.contains("The session has ended."))
            XCTAssertFalse(after.bodyString.contains(api.id.uuidString.lowercased()), "no longer listed")
            let again = try await browser.submit(form)
            XCTAssertEqual(again.status, .notFound, "an ended session cannot be ended again")
            again.assertPageHeaders()
        }
    }

    func testEndingThisBrowsersOwnSessionSignsItOut() async throws {
        try await withTestApp { app in
            let (browser, page) = try await app.accountBrowser("bea")
            let own = try XCTUnwrap(HTMLForm.all(in: page.bodyString).first { $0.action?.hasPrefix("/account/sessions/") == true })
            XCTAssertTrue(page.bodyString.contains(">Sign out</button></form>\n</li>"), "this browser's row says what its button does")
            let ended = try await browser.submit(own)
            XCTAssertEqual(ended.status, .ok)
            ended.assertPageHeaders()
            XCTAssertTrue(ended.bodyString.contains("You are signed out"))
            XCTAssertNil(browser.cookies["til_session"], "the cookie is removed")
            let signedIn = try await browser.isSignedIn()
            XCTAssertFalse(signedIn)
        }
    }

    func testRevokingAnApplicationWithdrawsItsGrantAndEndsItsTokens() async throws {
        try await withTestApp { app in
            let user = try await User.create(username: "cato", on: app)
            let client = try await app.oauthClient(["client_name": "Calendar"])
            let access = try await app.grantedAccessToken(for: client, user: user.id)
            let browser = BrowserClient(app.client)
            let page = try await browser.accountPage(signingInAs: "cato")
            let revoked = try await browser.submit(try HTMLForm.posting(to: "/account/apps/\(client.id)/revoke", in: page))
            XCTAssertEqual(revoked.location, "/account?notice=app-revoked")
            let status = try await app.client.meStatus(access)
            XCTAssertEqual(status, 401)
            let grants = try await app.til.db.query("SELECT count(*) AS n FROM oauth_grants WHERE user_id = \(user.id)")
            XCTAssertEqual(try grants[0].decode(column: "n", as: Int64.self), 0)
            let after = try await browser.get("/account?notice=app-revoked")
            XCTAssertTrue(after.bodyString.contains("No applications have access to your account."), after.bodyString)
            let again = try await browser.post("/account/apps/\(client.id)/revoke", [("csrf_token", try XCTUnwrap(after.csrfMeta))])
            XCTAssertEqual(again.status, .notFound)
        }
    }

    func testEveryFormRefusesAMissingOrForeignTokenAndActsOnNothing() async throws {
        try await withTestApp { app in
            let user = try await User.create(username: "dov", on: app)
            _ = try await User.create(username: "eve", on: app)
            let api = try await app.client.session("dov")
            let client = try await app.oauthClient()
            _ = try await app.grantedAccessToken(for: client, user: user.id)
            let victim = BrowserClient(app.client)
            _ = try await victim.accountPage(signingInAs: "dov")
            let attacker = BrowserClient(app.client)
            let attackerPage = try await attacker.accountPage(signingInAs: "eve")
            let foreign = try XCTUnwrap(attackerPage.csrfMeta)
            for action in ["/account/sessions/\(api.id.uuidString)/end", "/account/apps/\(client.id)/revoke"] {
                for fields in [[], [("csrf_token", foreign)], [("csrf_token", String(repeating: "0", count: 64))]] {
                    let refused = try await victim.post(action, fields)
                    XCTAssertEqual(refused.status, .forbidden, "\(action) \(fields)")
                    refused.assertPageHeaders()
                }
                // Eve's own valid token, on Dov's session and grant: not hers, so not found.
                let notHers = try await attacker.post(action, [("csrf_token", foreign)])
                XCTAssertEqual(notHers.status, .notFound, action)
            }
            let status = try await app.client.meStatus(api.value)
            XCTAssertEqual(status, 200, "nothing was ended")
            let grants = try await app.til.db.query("SELECT count(*) AS n FROM oauth_grants WHERE user_id = \(user.id)")
            XCTAssertEqual(try grants[0].decode(column: "n", as: Int64.self), 1)
        }
    }

    func testBadInputIsAPageNeverA500() async throws {
        try await withTestApp { app in
            let (browser, page) = try await app.accountBrowser("fen")
            let token = try XCTUnwrap(page.csrfMeta)
            let notAUUID = try await browser.post("/account/sessions/not-a-uuid/end", [("csrf_token", token)])
            XCTAssertEqual(notAUUID.status, .badRequest)
            notAUUID.assertPageHeaders()
            let twice = try await browser.post("/account/sessions/\(UUID())/end", [("csrf_token", token), ("csrf_token", token)])
            XCTAssertEqual(twice.status, .badRequest)
            let withNUL = try await browser.post("/account/apps/x/revoke", [("csrf_token", token), ("note", "a\u{0}b")])
            XCTAssertEqual(withNUL.status, .badRequest)
            let json = try await browser.send(
                .post, "/account/apps/x/revoke", body: Array(#"{"csrf_token":"\#(token)"}"#.utf8), contentType: "application/json")
            XCTAssertEqual(json.status, .badRequest, "only a form")
            let longID = String(repeating: "a", count: 4000)
            let long = try await browser.post("/account/apps/\(longID)/revoke", [("csrf_token", token)])
            XCTAssertEqual(long.status, .notFound)
            let unknown = try await browser.post("/account/sessions/\(UUID())/end", [("csrf_token", token)])
            XCTAssertEqual(unknown.status, .notFound)
            let get = try await browser.get("/account/sessions/\(UUID())/end")
            XCTAssertNotEqual(get.status.code / 100, 2, "a GET never ends anything")
            let signedIn = try await browser.isSignedIn()
            XCTAssertTrue(signedIn)
        }
    }

    func testASessionThatEndedElsewhereMakesTheFormsTheSignInPage() async throws {
        try await withTestApp { app in
            let (browser, page) = try await app.accountBrowser("gil")
            let token = try XCTUnwrap(page.csrfMeta)
            let account = try await app.client.session("gil", scope: "account").value
            let everywhere = try await app.client.send(.post, "/api/users/logout-all", auth: .bearer(account))
            XCTAssertEqual(everywhere.status, .noContent)
            let answer = try await browser.post("/account/sessions/\(UUID())/end", [("csrf_token", token)])
            XCTAssertEqual(answer.status, .ok)
            XCTAssertEqual(try HTMLForm.only(in: answer).value("return_to"), "/account", "sign in again, then back here")
        }
    }
}
