import AppTesting
import Foundation
import OneTimePasswords
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The account page's password form: the same proof as `PUT /api/users/me/password` (the
/// current password, a code with TOTP on), the new password twice; refusals shown in the open
/// form, success a 303 with every other session ended and this browser kept.
final class AccountPasswordPageTests: XCTestCase {
    func testChangingThePasswordOnTheAccountPage() async throws {
        try await withTestApp(settings: ["LOGIN_MAX_FAILURES": "20"]) { app in
            let (browser, page) = try await app.accountBrowser("jango")
            let elsewhere = try await app.client.session("jango")
            XCTAssertTrue(page.bodyString.contains(#"<h2 id="password-heading">Password</h2>"#), page.bodyString)
            let form = try HTMLForm.posting(to: "/account/password", in: page)
            XCTAssertEqual(Set(form.fields.map(\.name)), ["csrf_token", "current_password", "new_password", "repeat_password"])
            XCTAssertTrue(page.bodyString.contains(#"name="new_password" autocomplete="new-password" minlength="8""#))
            XCTAssertTrue(page.bodyString.contains(#"<label for="password-repeat">"#), "every field labelled")

            let cases: [([String: String], HTTPStatus, String)] = [
                (["current_password": "", "new_password": "new-password-1", "repeat_password": "new-password-1"], .badRequest, "Enter your current password."),
                (["current_password": "password", "new_password": "short", "repeat_password": "short"], .badRequest, "at least 8 bytes"),
                (["current_password": "password", "new_password": "new-password-1", "repeat_password": "new-password-2"], .badRequest, "differ"),
                (["current_password": "wrong", "new_password": "new-password-1", "repeat_password": "new-password-1"], .forbidden, "The current password is wrong."),
                (["current_password": "password", "new_password": "new-password-1", "repeat_password": "new-password-1", "code": "12"], .badRequest, "6-digit code"),
            ]
            for (fields, status, reason) in cases {
                let refused = try await browser.submit(form, fields)
                XCTAssertEqual(refused.status, status, "\(fields): \(refused.bodyString)")
                refused.assertPageHeaders()
                XCTAssertTrue(refused.bodyString.contains(#"<p class="error" role="alert" id="password-error">"#), refused.bodyString)
                XCTAssertTrue(refused.bodyString.contains(reason), "\(reason) in \(refused.bodyString)")
                XCTAssertTrue(refused.bodyString.contains(#"<details class="alternative" open>"#), "the form shown open")
            }
            let forged = try await browser.submit(form, ["csrf_token": String(repeating: "0", count: 64), "current_password": "password"])
            XCTAssertEqual(forged.status, .forbidden)
            let stillOld = try await app.client.meStatus(elsewhere.value)
            XCTAssertEqual(stillOld, 200, "nothing changed yet")

            let changed = try await browser.submit(
                form, ["current_password": "password", "new_password": "new-password-1", "repeat_password": "new-password-1"])
            XCTAssertEqual(changed.location, "/account?notice=password-changed", changed.bodyString)
            let ended = try await app.client.meStatus(elsewhere.value)
            XCTAssertEqual(ended, 401, "every other session ended")
            let again = try await browser.get("/account?notice=password-changed")
            XCTAssertEqual(again.status, .ok, "this browser stays signed in")
            XCTAssertTrue(again.bodyString.contains(AccountNotice.passwordChanged.sentence))
            let newLogin = try await app.client.login("jango", "new-password-1")
            XCTAssertEqual(newLogin.status.code, 200)
        }
    }

    func testWithTOTPOnTheFormAsksForACodeAndOneCodeChangesItOnce() async throws {
        try await withMFAApp(settings: ["LOGIN_MAX_FAILURES": "20"]) { app, clock in
            let (enrolled, browser, form) = try await passwordFormWithTOTP("boba", app, clock)
            XCTAssertTrue(form.fields.contains { $0.name == "code" }, "a code field with TOTP on")
            let change = ["current_password": "password", "new_password": "new-password-1", "repeat_password": "new-password-1"]
            let without = try await browser.submit(form, change)
            XCTAssertEqual(without.status, .forbidden)
            XCTAssertTrue(without.bodyString.contains("TOTP is on"), without.bodyString)
            let statuses = try await browser.submitTwiceAtOnce(form, change.merging(["code": enrolled.code(at: clock)]) { $1 })
            XCTAssertEqual(statuses, [303, 403], "one code, one change")
        }
    }

    /// Unicode spellings: a full-width code typed with a space is the same code on the page as
    /// in the API, and a new password is stored exactly as typed (NFD stays NFD: its NFC
    /// spelling does not sign in).
    func testAFullWidthCodeChangesItAndTheNewPasswordIsKeptAsTyped() async throws {
        try await withMFAApp(settings: ["LOGIN_MAX_FAILURES": "20"]) { app, clock in
            let (enrolled, browser, form) = try await passwordFormWithTOTP("cad", app, clock)
            let code = enrolled.code(at: clock)
            let typed = MFASpellingTests.fullWidth("\(code.prefix(3)) \(code.suffix(3))")
            let decomposed = "Bane-cafe\u{301}-hat"  // "é" as e + combining acute
            let changed = try await browser.submit(
                form, ["current_password": "password", "new_password": decomposed, "repeat_password": decomposed, "code": typed])
            XCTAssertEqual(changed.location, "/account?notice=password-changed", "\(typed.debugDescription): \(changed.bodyString)")
            // With TOTP on, the right password's first step is a 401 asking for the second factor.
            let composed = try await app.client.login("cad", decomposed.precomposedStringWithCanonicalMapping)
            XCTAssertEqual(composed.status.code, 401)
            XCTAssertNil(try? composed.decode(MFARequired.self), "the NFC spelling is another password: \(composed.bodyString)")
            let asTyped = try await app.client.login("cad", decomposed)
            let second = try asTyped.decode(MFARequired.self)
            XCTAssertTrue(second.mfaRequired, "the NFD spelling, as typed, is the new password")
        }
    }
    /// A new user `username` with TOTP on, signed in through the pages (password, then a
    /// code), and the account page's password form; the clock one step on, so the next code
    /// is unused.
    private func passwordFormWithTOTP(
        _ username: String, _ app: TestApp, _ clock: TestClock
    ) async throws -> (EnrolledUser, BrowserClient, HTMLForm) {
        let enrolled = try await app.enrolledUser(username: username, clock: clock)
        let browser = BrowserClient(app.client)
        let signIn = try await browser.signIn(username)
        _ = try await browser.submit(try HTMLForm.posting(to: "/login/mfa", in: signIn), ["code": enrolled.code(at: clock)])
        clock.advance(steps: 1)
        return (enrolled, browser, try HTMLForm.posting(to: "/account/password", in: try await browser.get("/account")))
    }
}
