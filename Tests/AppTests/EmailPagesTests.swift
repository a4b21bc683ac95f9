import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The verification link's page and the account page's email section, as a browser uses them.
final class EmailPagesTests: XCTestCase {
    /// Opening the link changes nothing (a scanner may open it any number of times); its one
    /// button verifies, and signed in as the account it lands on the account page, which says so.
    func testTheLinksPageConfirmsWithOneButtonNeverOnTheGet() async throws {
        try await withTestApp { app in
            let user = try await app.user("gil", email: "gil@til.example", verified: false)
            let browser = BrowserClient(app.client)
            _ = try await browser.accountPage(signingInAs: "gil")
            let resent = try await browser.submit(try HTMLForm.posting(to: "/account/email/verification", in: try await browser.get("/account")))
            XCTAssertEqual(resent.location, "/account?notice=email-link-sent")
            let token = try await app.verificationToken(mailedTo: "gil@til.example")

            for _ in 0..<3 {
                let page = try await browser.get("/verify-email?token=\(token)")
                XCTAssertEqual(page.status, .ok)
                page.assertPageHeaders()
                let form = try HTMLForm.only(in: page)
                XCTAssertEqual(form.action, "/verify-email")
                XCTAssertEqual(form.value("token"), token)
            }
            let untouched = try await app.storedEmail(of: user.id)
            XCTAssertFalse(untouched.verified, "no GET verifies")

            let confirmed = try await browser.submit(try HTMLForm.only(in: try await browser.get("/verify-email?token=\(token)")))
            XCTAssertEqual(confirmed.status, .seeOther, confirmed.bodyString)
            XCTAssertEqual(confirmed.location, "/account?notice=email-verified")
            let account = try await browser.get("/account?notice=email-verified")
            XCTAssertTrue(account.bodyString.contains("Your email address is confirmed."))
            XCTAssertTrue(account.bodyString.contains(#"<span class="badge on">Verified</span> <strong>gil@til.example</strong>"#), account.bodyString)
            XCTAssertFalse(account.bodyString.contains("Send the link again"), "nothing waits for a link")

            let spent = try await browser.submit(try HTMLForm.only(in: try await browser.get("/verify-email?token=\(token)")))
            XCTAssertEqual(spent.status, .badRequest)
            spent.assertPageHeaders()
            XCTAssertTrue(spent.bodyString.contains("unknown, used or expired"), spent.bodyString)
        }
    }

    func testSignedOutTheButtonShowsAPageOfItsOwnAndBadLinksArePages() async throws {
        try await withTestApp { app in
            _ = try await app.user("hal", email: "hal@til.example", verified: false)
            let session = try await app.client.session("hal")
            _ = try await app.client.send(.post, "/api/users/me/email/verification", auth: .bearer(session.value))
            let token = try await app.verificationToken(mailedTo: "hal@til.example")
            let browser = BrowserClient(app.client)
            let confirmed = try await browser.submit(try HTMLForm.only(in: try await browser.get("/verify-email?token=\(token)")))
            XCTAssertEqual(confirmed.status, .ok)
            confirmed.assertPageHeaders()
            XCTAssertTrue(confirmed.bodyString.contains("Your email address is confirmed."))
            XCTAssertTrue(confirmed.bodyString.contains(#"href="/account""#))

            for target in ["/verify-email", "/verify-email?token=", "/verify-email?token=" + String(repeating: "a", count: 129),
                           "/verify-email?token=a&token=b"] {
                let refused = try await browser.get(target)
                XCTAssertEqual(refused.status, .badRequest, target)
                refused.assertPageHeaders()
            }
            let empty = try await browser.post("/verify-email", [])
            XCTAssertEqual(empty.status, .badRequest)
            XCTAssertTrue(empty.bodyString.contains("This link is incomplete."), empty.bodyString)
            let nul = try await browser.post("/verify-email", [("token", "a\u{0}b")])
            XCTAssertEqual(nul.status, .badRequest)
            let json = try await app.client.send(.post, "/verify-email", json: ["token": token])
            XCTAssertEqual(json.status.code, 400, "the page's form only")
        }
    }

    func testTheAccountPagesEmailSectionChangesTheAddressWithThePassword() async throws {
        try await withTestApp { app in
            _ = try await app.user("ida", email: "ida@old.example", verified: true)
            _ = try await app.user("taken", email: "taken@til.example", verified: true)
            let browser = BrowserClient(app.client)
            let page = try await browser.accountPage(signingInAs: "ida")
            XCTAssertTrue(page.bodyString.contains(#"<h2 id="email-heading">Email address</h2>"#))
            XCTAssertTrue(page.bodyString.contains(#"<span class="badge on">Verified</span> <strong>ida@old.example</strong>"#))
            let form = try HTMLForm.posting(to: "/account/email", in: page)
            XCTAssertNotNil(form.value("csrf_token"))
            XCTAssertTrue(page.bodyString.contains(#"<input type="email" id="email-new" name="email" autocomplete="email" maxlength="254" required>"#))

            let wrong = try await browser.submit(form, ["email": "ida@new.example", "current_password": "nope"])
            XCTAssertEqual(wrong.status, .forbidden)
            XCTAssertTrue(wrong.bodyString.contains(#"<p class="error" role="alert" id="email-error">The current password is wrong.</p>"#), wrong.bodyString)
            XCTAssertTrue(wrong.bodyString.contains(#"<details class="alternative" open>"#), "the form is shown open")
            let taken = try await browser.submit(form, ["email": "TAKEN@til.example", "current_password": "password"])
            XCTAssertEqual(taken.status, .conflict)
            XCTAssertTrue(taken.bodyString.contains("Another account uses that address."))
            let bad = try await browser.submit(form, ["email": "ida@@new.example", "current_password": "password"])
            XCTAssertEqual(bad.status, .badRequest)
            XCTAssertTrue(bad.bodyString.contains("must hold exactly one &#39;@&#39;."), bad.bodyString)
            let noPassword = try await browser.submit(form, ["email": "ida@new.example", "current_password": ""])
            XCTAssertEqual(noPassword.status, .badRequest)
            let forged = try await browser.submit(form, ["email": "ida@new.example", "current_password": "password", "csrf_token": String(repeating: "0", count: 64)])
            XCTAssertEqual(forged.status, .forbidden)
            let none = try await app.queuedMails()
            XCTAssertEqual(none, [], "no refused form queued a mail")

            let sent = try await browser.submit(form, ["email": "ida@new.example", "current_password": "password"])
            XCTAssertEqual(sent.location, "/account?notice=email-change-sent")
            let after = try await browser.get("/account?notice=email-change-sent")
            XCTAssertTrue(after.bodyString.contains("We sent a link to the new address."))
            XCTAssertTrue(after.bodyString.contains("Waiting for you to confirm <strong>ida@new.example</strong>"), after.bodyString)
            XCTAssertTrue(after.bodyString.contains("Send the link again"))
            let kinds = try await app.queuedMails().map(\.kind)
            XCTAssertEqual(kinds, ["email-verification", "email-changed"])
        }
    }

    func testTheResendButtonSaysWhenTheThrottleRefusesIt() async throws {
        try await withTestApp { app in
            _ = try await app.user("jon", email: "jon@til.example", verified: false)
            let browser = BrowserClient(app.client)
            let page = try await browser.accountPage(signingInAs: "jon")
            XCTAssertTrue(page.bodyString.contains(#"<span class="badge off">Not verified</span> <strong>jon@til.example</strong>"#))
            let resend = try HTMLForm.posting(to: "/account/email/verification", in: page)
            for _ in 0..<EmailSendThrottle.perAccount {
                let sent = try await browser.submit(resend)
                XCTAssertEqual(sent.status, .seeOther)
            }
            let refused = try await browser.submit(resend)
            XCTAssertEqual(refused.status, .tooManyRequests)
            XCTAssertNotNil(refused.headers["Retry-After"])
            XCTAssertTrue(refused.bodyString.contains(#"role="alert" id="email-error">Too many verification mails"#), refused.bodyString)
            refused.assertPageHeaders()
        }
    }
}
