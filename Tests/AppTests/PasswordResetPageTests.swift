import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The pages of a forgotten password, as a browser uses them: the sign-in form's link, the
/// forgot-password form (the same answer for every login), the link's page (showing it spends
/// nothing), the new password, and for an account with two-step sign-in the code step. Every
/// form carries the CSRF token of the pre-login cookie; no page runs a script.
final class PasswordResetPageTests: XCTestCase {
    func testForgotPasswordFromTheSignInFormToANewPassword() async throws {
        try await withTestApp { app in
            let (user, email) = try await app.userWithVerifiedEmail()
            let browser = BrowserClient(app.client)
            let signIn = try await browser.get("/login")
            XCTAssertTrue(signIn.bodyString.contains(#"<a href="/forgot-password">Forgot your password?</a>"#), signIn.bodyString)

            let forgot = try await browser.get("/forgot-password")
            XCTAssertEqual(forgot.status.code, 200)
            forgot.assertPageHeaders()
            XCTAssertFalse(forgot.headers["Content-Security-Policy"]?.contains("script-src") ?? true, "no script on these pages")
            let form = try HTMLForm.only(in: forgot)
            XCTAssertEqual(form.action, "/forgot-password")
            let sent = try await browser.submit(form, ["login": user.username])
            XCTAssertEqual(sent.status.code, 200, sent.bodyString)
            XCTAssertTrue(sent.bodyString.contains("Check your email"), sent.bodyString)
            let unknown = try await browser.submit(try HTMLForm.only(in: try await browser.get("/forgot-password")), ["login": "nobody-here"])
            XCTAssertEqual(unknown.body, sent.body, "the same page for a login that names nothing")

            let token = try await app.newestResetToken(mailedTo: email)
            let link = "/reset-password?token=\(token)"
            _ = try await browser.get(link)
            let page = try await browser.get(link)
            XCTAssertEqual(page.status.code, 200, "showing the page twice spends nothing")
            page.assertPageHeaders()
            let resetForm = try HTMLForm.only(in: page)
            XCTAssertEqual(resetForm.value("token"), token)
            XCTAssertEqual(resetForm.value("username"), user.username)
            XCTAssertTrue(page.bodyString.contains(#"name="new_password" autocomplete="new-password""#), page.bodyString)

            let short = try await browser.submit(resetForm, ["new_password": "short"])
            XCTAssertEqual(short.status.code, 400)
            XCTAssertTrue(short.bodyString.contains("must be at least 8 bytes"), short.bodyString)
            let common = try await browser.submit(try HTMLForm.only(in: short), ["new_password": "iloveyou"])
            XCTAssertEqual(common.status.code, 400)
            XCTAssertTrue(common.bodyString.contains("most common passwords"), "the rules of every password set: \(common.bodyString)")
            let done = try await browser.submit(try HTMLForm.only(in: common), ["new_password": "page-chosen-secret"])
            XCTAssertEqual(done.status.code, 200, done.bodyString)
            XCTAssertTrue(done.bodyString.contains("Password changed"), done.bodyString)
            _ = try await app.client.session(user.username, "page-chosen-secret")
            let gone = try await browser.get(link)
            XCTAssertEqual(gone.status.code, 400)
            XCTAssertTrue(gone.bodyString.contains(#"<a href="/forgot-password">Ask for a new link</a>"#), gone.bodyString)
        }
    }

    func testTheCodeStepOfAnAccountWithTwoStepSignIn() async throws {
        try await withMFAApp { app, clock in
            let (enrolled, token) = try await PasswordResetSecondFactorTests.resetOfEnrolledUser(app, clock)
            let browser = BrowserClient(app.client)
            let resetForm = try HTMLForm.only(in: try await browser.get("/reset-password?token=\(token)"))
            let step = try await browser.submit(resetForm, ["new_password": "page-chosen-secret"])
            XCTAssertEqual(step.status.code, 200, step.bodyString)
            step.assertPageHeaders()
            XCTAssertFalse(step.bodyString.contains("page-chosen-secret"), "the new password waits on the server, not in the page")
            let forms = HTMLForm.all(in: step.bodyString)
            XCTAssertEqual(forms.map(\.action), ["/reset-password/mfa", "/reset-password/mfa"], "the code, and the recovery code")
            XCTAssertEqual(forms[0].value("token"), token)
            XCTAssertNotNil(forms[0].value("mfa_token"))

            let wrong = try await browser.submit(forms[0], ["code": "000000"])
            XCTAssertEqual(wrong.status.code, 401)
            XCTAssertTrue(wrong.bodyString.contains(SecondFactors.wrongCode), wrong.bodyString)
            let unreadable = try await browser.submit(forms[0], ["code": "12"])
            XCTAssertEqual(unreadable.status.code, 400)
            let done = try await browser.submit(HTMLForm.all(in: wrong.bodyString)[0], ["code": enrolled.code(at: clock)])
            XCTAssertEqual(done.status.code, 200, done.bodyString)
            XCTAssertTrue(done.bodyString.contains("Password changed"), done.bodyString)
            let login = try await app.client.login(enrolled.user.username, "page-chosen-secret")
            XCTAssertEqual(try login.decode(MFARequired.self).mfaRequired, true)
        }
    }

    func testAnExpiredCodeStepAsksForThePasswordAgainAndARecoveryCodeWorks() async throws {
        try await withMFAApp { app, clock in
            let (enrolled, token) = try await PasswordResetSecondFactorTests.resetOfEnrolledUser(app, clock)
            let browser = BrowserClient(app.client)
            let step = try await browser.submit(
                try HTMLForm.only(in: try await browser.get("/reset-password?token=\(token)")), ["new_password": "page-chosen-secret"])
            try await app.til.db.execute("DELETE FROM mfa_challenges WHERE user_id = \(enrolled.user.id)")
            let expired = try await browser.submit(HTMLForm.all(in: step.bodyString)[0], ["code": enrolled.code(at: clock)])
            XCTAssertEqual(expired.status.code, 401)
            XCTAssertTrue(expired.bodyString.contains("This step has expired. Enter your new password again."), expired.bodyString)
            let again = try await browser.submit(try HTMLForm.only(in: expired), ["new_password": "second-try-secret"])
            let recovery = HTMLForm.all(in: again.bodyString)[1]
            let done = try await browser.submit(recovery, ["recovery_code": enrolled.recoveryCodes[0]])
            XCTAssertEqual(done.status.code, 200, done.bodyString)
            _ = try await app.mfaToken(enrolled.user.username, password: "second-try-secret")
        }
    }

    func testFormsWithoutTheirCSRFTokenOrWithBadFieldsAreRefused() async throws {
        try await withTestApp { app in
            let (user, email) = try await app.userWithVerifiedEmail()
            let browser = BrowserClient(app.client)
            let forgot = try HTMLForm.only(in: try await browser.get("/forgot-password"))
            let forged = try await browser.submit(forgot, ["login": user.username, "csrf_token": String(repeating: "0", count: 64)])
            XCTAssertEqual(forged.status.code, 403)
            let stranger = BrowserClient(app.client)  // another browser: no pre-login cookie
            let crossSite = try await stranger.submit(forgot, ["login": user.username])
            XCTAssertEqual(crossSite.status.code, 403)
            let mails = try await app.mails(.passwordReset, to: email)
            XCTAssertEqual(mails, 0, "no forged request went through")

            let blank = try await browser.submit(forgot, ["login": " "])
            XCTAssertEqual(blank.status.code, 400)
            XCTAssertTrue(blank.bodyString.contains("Enter your username or your email address."), blank.bodyString)
            let twice = try await browser.post("/forgot-password", forgot.fields + [("login", "a"), ("login", "b")])
            XCTAssertEqual(twice.status.code, 400)
            let nul = try await browser.post("/forgot-password", forgot.fields.filter { $0.name != "login" } + [("login", "a\u{0}b")])
            XCTAssertEqual(nul.status.code, 400)

            let token = try await app.resetToken(for: user.username, mailedTo: email)
            let resetForm = try HTMLForm.only(in: try await browser.get("/reset-password?token=\(token)"))
            let forgedReset = try await stranger.submit(resetForm, ["new_password": "forged-new-secret"])
            XCTAssertEqual(forgedReset.status.code, 403)
            let unknown = try await browser.submit(resetForm, ["token": "not-the-token", "new_password": "some-new-secret"])
            XCTAssertEqual(unknown.status.code, 400)
            XCTAssertTrue(unknown.bodyString.contains("This link no longer works"), unknown.bodyString)
            let missing = try await browser.get("/reset-password")
            XCTAssertEqual(missing.status.code, 400)
            _ = try await app.client.session(user.username, "password")
        }
    }
}
