import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Step-up in the browser: a sign-in older than `REAUTH_WINDOW` is sent through a fresh one
/// (`/login?return_to=…&max_age=…`, the username filled in) before it may set up TOTP or add
/// or remove a passkey, and comes back to the account page saying the change can be made now.
final class ReauthenticationPageTests: XCTestCase {
    static let freshSignIn = "/login?return_to=/account%3Fnotice%3Dsigned-in-again&max_age=600"

    func testAnOldSignInIsSentThroughAFreshOneAndBack() async throws {
        try await withTestApp { app in
            let (browser, page) = try await app.accountBrowser("bb8")
            let found = try await UserRepository(db: app.til.db).find(username: "bb8")
            let user = try XCTUnwrap(found)
            try await app.ageAuthentications(ofUser: user.id)
            let start = try HTMLForm.posting(to: "/account/totp", in: page)
            let sent = try await browser.submit(start)
            XCTAssertEqual(sent.status, .seeOther, sent.bodyString)
            XCTAssertEqual(sent.location, Self.freshSignIn)
            let pending = try await app.number("SELECT count(*)::int AS n FROM totp_credentials")
            XCTAssertEqual(pending, 0, "nothing started")

            let signIn = try await browser.get(Self.freshSignIn)
            XCTAssertEqual(signIn.status, .ok)
            signIn.assertPageHeaders()
            XCTAssertTrue(signIn.bodyString.contains(#"<p class="notice" role="status">This change needs a recent sign-in"#), signIn.bodyString)
            let form = try HTMLForm.only(in: signIn)
            XCTAssertEqual(form.value("username"), "bb8")
            XCTAssertEqual(form.value("return_to"), "/account?notice=signed-in-again")
            let wrong = try await browser.submit(form, ["password": "not-it"])
            XCTAssertEqual(wrong.status, .unauthorized, "a wrong password is a wrong password")
            let back = try await browser.submit(form, ["password": "password"])
            XCTAssertEqual(back.location, "/account?notice=signed-in-again")
            let sessions = try await app.number(
                "SELECT count(*)::int AS n FROM sessions WHERE user_id = \(user.id) AND kind = 'browser' AND revoked_at IS NULL")
            XCTAssertEqual(sessions, 1, "the fresh sign-in replaced the old one")

            let again = try await browser.get("/account?notice=signed-in-again")
            XCTAssertTrue(again.bodyString.contains("You signed in again: you can make the change now."))
            let enrolment = try await browser.submit(try HTMLForm.posting(to: "/account/totp", in: again))
            XCTAssertEqual(enrolment.status, .ok, enrolment.bodyString)
            XCTAssertTrue(enrolment.bodyString.contains("<svg"), "the QR code page")
        }
    }

    func testConfirmingAndRemovingAPasskeyAskToo() async throws {
        try await withTestApp { app in
            let owner = try await User.create(username: "r2d2", on: app)
            let passkey = try await PasskeyRows.insert(for: owner.id, on: app)
            let browser = BrowserClient(app.client)
            let page = try await browser.accountPage(signingInAs: "r2d2")
            let enrolment = try await browser.submit(try HTMLForm.posting(to: "/account/totp", in: page))
            let confirm = try HTMLForm.posting(to: "/account/totp/confirm", in: enrolment)
            try await app.ageAuthentications(ofUser: owner.id)

            let confirmed = try await browser.submit(confirm, ["code": "123456"])
            XCTAssertEqual(confirmed.location, Self.freshSignIn)
            let remove = try HTMLForm.posting(to: "/account/passkeys/\(passkey.uuidString.lowercased())/remove", in: page)
            let removed = try await browser.submit(remove)
            XCTAssertEqual(removed.location, Self.freshSignIn)
            let left = try await app.number("SELECT count(*)::int AS n FROM passkeys")
            XCTAssertEqual(left, 1)

            let csrf = try XCTUnwrap(page.csrfMeta)
            let options = try await browser.send(
                .post, "/account/passkeys/options", body: Array("{}".utf8), contentType: "application/json", headers: ["X-CSRF-Token": csrf])
            XCTAssertEqual(options.status.code, 401, options.bodyString)
            let body = try options.decode(ReauthenticationRequired.self)
            XCTAssertEqual(body.next, Self.freshSignIn, "where the script sends the browser")
            XCTAssertEqual(body.maxAge, 600)
            XCTAssertNil(options.headers["WWW-Authenticate"], "a page endpoint takes no bearer token")

            let renamed = try await browser.submit(
                try HTMLForm.posting(to: "/account/passkeys/\(passkey.uuidString.lowercased())/rename", in: page), ["name": "Blue key"])
            XCTAssertEqual(renamed.location, "/account?notice=passkey-renamed", "a name changes no way in: no fresh sign-in")
        }
    }

    func testTheSignInPagesMaxAge() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "c3po", on: app)
            let browser = BrowserClient(app.client)
            try await browser.signIn("c3po")
            let recent = try await browser.get("/login?return_to=/account&max_age=600")
            XCTAssertEqual(recent.location, "/account", "signed in within max_age: straight on")
            let zero = try await browser.get("/login?return_to=/account&max_age=0")
            XCTAssertEqual(zero.status, .ok, "max_age=0 always asks")
            XCTAssertEqual(try HTMLForm.only(in: zero).value("username"), "c3po")
            for bad in ["abc", "-1", "1.5", "", "99999999999", "%D9%A3", "1&max_age=2"] {
                let response = try await browser.get("/login?return_to=/account&max_age=\(bad)")
                XCTAssertEqual(response.status, .badRequest, "max_age=\(bad): \(response.bodyString)")
                XCTAssertTrue(response.headers["Content-Type"]?.hasPrefix("text/html") == true, "an error page")
            }
            let signedOut = try await BrowserClient(app.client).get("/login?max_age=600")
            XCTAssertEqual(signedOut.status, .ok, "signed out: the form, as always")
            XCTAssertFalse(signedOut.bodyString.contains("recent sign-in"))
        }
    }
}
