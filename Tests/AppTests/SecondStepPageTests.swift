import AppTesting
import Foundation
import OneTimePasswords
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The sign-in's second step on the pages: after a correct password for an account with TOTP
/// on, the code step (`POST /login/mfa`), then the browser session with its `amr`.
final class SecondStepPageTests: XCTestCase {
    func testACorrectPasswordWithTOTPOnShowsTheCodeStepAndStartsNoSession() async throws {
        try await withMFAApp { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            let browser = BrowserClient(app.client)
            let step = try await browser.signIn(enrolled.user.username, at: "/login?return_to=/next")
            XCTAssertEqual(step.status, .ok)
            step.assertPageHeaders()
            XCTAssertNil(browser.cookies["til_session"], "no session before the second factor")
            XCTAssertNotNil(browser.cookies["til_login"], "the pre-login cookie stays for the step's token")
            let html = step.bodyString
            for fragment in [
                #"<label for="code">"#, #"name="code""#, #"autocomplete="one-time-code""#, #"inputmode="numeric""#,
                "<details class=\"alternative\">", "<summary>Use a recovery code</summary>", #"name="recovery_code""#,
            ] {
                XCTAssertTrue(html.contains(fragment), "\(fragment) in \(html)")
            }
            XCTAssertFalse(html.contains("<script"), "no passkeys: no script")
            XCTAssertFalse(html.contains("passkey-second-factor"))
            let forms = HTMLForm.all(in: html)
            XCTAssertEqual(forms.map(\.action), ["/login/mfa", "/login/mfa"])
            for form in forms {
                XCTAssertEqual(form.value("return_to"), "/next")
                XCTAssertEqual(form.value("csrf_token"), CSRFToken.token(boundTo: try XCTUnwrap(browser.cookies["til_login"])))
                XCTAssertEqual(form.value("mfa_token")?.utf8.count, 43)
            }
            let pending = try await app.number("SELECT count(*)::int AS n FROM mfa_challenges")
            XCTAssertEqual(pending, 1)
            let sessions = try await app.number("SELECT count(*)::int AS n FROM sessions WHERE kind = 'browser'")
            XCTAssertEqual(sessions, 0)
        }
    }

    func testTheRightCodeStartsABrowserSessionWithItsAmrAndGoesOn() async throws {
        try await withMFAApp { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            let browser = BrowserClient(app.client)
            let step = try await browser.signIn(enrolled.user.username, at: "/login?return_to=/somewhere%3Fa%3D1")
            let preLogin = browser.cookies["til_login"]
            let done = try await browser.submit(try HTMLForm.posting(to: "/login/mfa", in: step), ["code": enrolled.code(at: clock)])
            XCTAssertEqual(done.status, .seeOther, done.bodyString)
            XCTAssertEqual(done.location, "/somewhere?a=1")
            XCTAssertNil(browser.cookies["til_login"], "the pre-login cookie is removed")
            let amr = try await app.til.db.query("SELECT array_to_string(amr, ' ') AS amr FROM sessions WHERE kind = 'browser'")
            XCTAssertEqual(try amr.map { try $0.decode(column: "amr", as: String.self) }, ["pwd otp mfa"])
            let signedIn = try await browser.isSignedIn()
            XCTAssertTrue(signedIn)
            let account = try await browser.get("/account")
            XCTAssertTrue(account.bodyString.contains("</time> with password and authenticator code · last used"), account.bodyString)
            let spent = try await app.number("SELECT count(*)::int AS n FROM mfa_challenges")
            XCTAssertEqual(spent, 0, "the mfaToken is single-use")
            let again = try await browser.submit(try HTMLForm.posting(to: "/login/mfa", in: step), ["code": enrolled.code(at: clock)])
            XCTAssertEqual(again.status, .forbidden, "the step's form died with the pre-login cookie")
            let replayer = BrowserClient(app.client)
            replayer.setCookie("til_login", preLogin)
            let replayed = try await replayer.submit(try HTMLForm.posting(to: "/login/mfa", in: step), ["code": enrolled.code(at: clock, offset: 1)])
            XCTAssertEqual(replayed.status, .unauthorized, "the spent mfaToken: the sign-in form again")
            XCTAssertTrue(replayed.bodyString.contains("This sign-in has expired"), replayed.bodyString)
        }
    }

    func testWrongCodesShowTheStepAgainAndTheFifthEndsIt() async throws {
        try await withMFAApp(settings: ["LOGIN_MAX_FAILURES": "20"]) { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            let browser = BrowserClient(app.client)
            let step = try await browser.signIn(enrolled.user.username)
            let form = try HTMLForm.posting(to: "/login/mfa", in: step)
            for attempt in 1...4 {
                let wrong = try await browser.submit(form, ["code": enrolled.code(at: clock, offset: 7)])
                XCTAssertEqual(wrong.status, .unauthorized, "attempt \(attempt)")
                wrong.assertPageHeaders()
                XCTAssertNil(wrong.headers["WWW-Authenticate"], "a page, not a Basic challenge")
                XCTAssertTrue(wrong.bodyString.contains(#"<p class="error" role="alert" id="mfa-error">The code is wrong or was already used.</p>"#))
                XCTAssertTrue(wrong.bodyString.contains(#"aria-invalid="true""#))
                XCTAssertEqual(try HTMLForm.posting(to: "/login/mfa", in: wrong).value("mfa_token"), form.value("mfa_token"), "the same step")
            }
            let fifth = try await browser.submit(form, ["code": enrolled.code(at: clock, offset: 7)])
            XCTAssertEqual(fifth.status, .unauthorized)
            XCTAssertTrue(fifth.bodyString.contains("Too many wrong codes. Enter your password again."), fifth.bodyString)
            XCTAssertEqual(try HTMLForm.only(in: fifth).action, "/login", "the sign-in form again")
            let late = try await browser.submit(form, ["code": enrolled.code(at: clock)])
            XCTAssertTrue(late.bodyString.contains("This sign-in has expired"), "even the right code: the token is gone")
            let sessions = try await app.number("SELECT count(*)::int AS n FROM sessions WHERE kind = 'browser'")
            XCTAssertEqual(sessions, 0)
        }
    }

    func testARecoveryCodeSignsInOnceWithItsAmrAndSaysSo() async throws {
        try await withMFAApp { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            let recovery = enrolled.recoveryCodes[3]
            for (round, expected) in [(1, HTTPStatus.seeOther), (2, .unauthorized)] {
                let browser = BrowserClient(app.client)
                let step = try await browser.signIn(enrolled.user.username)
                let form = try XCTUnwrap(HTMLForm.all(in: step.bodyString).first { $0.fields.contains { $0.name == "recovery_code" } })
                // As people type it: lower case, spaces for dashes.
                let typed = recovery.lowercased().replacingOccurrences(of: "-", with: " ")
                let answer = try await browser.submit(form, ["recovery_code": typed])
                XCTAssertEqual(answer.status, expected, "round \(round): \(answer.bodyString)")
                if round == 1 {
                    XCTAssertEqual(answer.location, "/account?notice=recovery-code-used")
                    let page = try await browser.get(try XCTUnwrap(answer.location))
                    XCTAssertTrue(page.bodyString.contains("You signed in with a recovery code"))
                    XCTAssertTrue(page.bodyString.contains("9 recovery codes left"), page.bodyString)
                }
            }
            let amr = try await app.til.db.query("SELECT array_to_string(amr, ' ') AS amr FROM sessions WHERE kind = 'browser'")
            XCTAssertEqual(try amr.map { try $0.decode(column: "amr", as: String.self) }, ["pwd mfa"])
        }
    }

    func testTheStepRefusesAForeignTokenAndBadInputWithAPage() async throws {
        try await withMFAApp { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            let browser = BrowserClient(app.client)
            let step = try await browser.signIn(enrolled.user.username)
            let form = try HTMLForm.posting(to: "/login/mfa", in: step)
            let code = enrolled.code(at: clock)
            let forged = try await browser.submit(form, ["csrf_token": String(repeating: "a", count: 64), "code": code])
            XCTAssertEqual(forged.status, .forbidden)
            let elsewhere = BrowserClient(app.client)
            let stolen = try await elsewhere.post("/login/mfa", form.fields.filter { $0.name != "code" } + [("code", code)])
            XCTAssertEqual(stolen.status, .forbidden, "the step's token is bound to this browser's pre-login cookie")
            for (fields, message) in [
                (["code": "12ab56"], "Enter the 6 digits"), (["code": ""], "Enter the 6 digits"),
                (["code": code, "recovery_code": "ABCD"], "Enter one of your recovery codes"),
            ] {
                let refused = try await browser.submit(form, fields)
                XCTAssertEqual(refused.status, .badRequest, "\(fields)")
                XCTAssertTrue(refused.bodyString.contains(message), "\(fields): \(refused.bodyString)")
            }
            let noCode = try await browser.post("/login/mfa", form.fields.filter { $0.name != "code" })
            XCTAssertEqual(noCode.status, .badRequest)
            let twice = try await browser.post("/login/mfa", form.fields + [("code", code)])
            XCTAssertEqual(twice.status, .badRequest, "the code sent twice")
            let withNUL = try await browser.submit(form, ["code": "123\u{0}456"])
            XCTAssertEqual(withNUL.status, .badRequest)
            let longToken = try await browser.submit(form, ["mfa_token": String(repeating: "x", count: 129), "code": code])
            XCTAssertEqual(longToken.status, .badRequest)
            let unknown = try await browser.submit(form, ["mfa_token": "not-a-token", "code": code])
            XCTAssertEqual(unknown.status, .unauthorized)
            XCTAssertTrue(unknown.bodyString.contains("This sign-in has expired"))
            let badReturn = try await browser.submit(form, ["return_to": "//evil.example", "code": code])
            XCTAssertEqual(badReturn.status, .badRequest)
            // None of that spent the token: the right code still works.
            let done = try await browser.submit(form, ["code": code])
            XCTAssertEqual(done.status, .seeOther, done.bodyString)
        }
    }

    func testFullWidthDigitsSpacesAndDashesAreTheSameCodeAndUsedOnce() async throws {
        try await withMFAApp { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            let now = Array(enrolled.code(at: clock)), next = Array(enrolled.code(at: clock, offset: 1))
            let fullWidth = String(now.map { Character(Unicode.Scalar(0xFF10 + Int($0.asciiValue! - 48))!) })
            for (typed, expected) in [
                (String(fullWidth.prefix(3)) + "\u{3000}" + String(fullWidth.suffix(3)), HTTPStatus.seeOther),  // １２３　４５６
                (String(next[0..<3]) + "\u{2011}" + String(next[3...]), .seeOther),  // a non-breaking hyphen
                (String(now), .unauthorized),  // the first step's code again: a replay
            ] {
                let browser = BrowserClient(app.client)
                let step = try await browser.signIn(enrolled.user.username)
                let answer = try await browser.submit(try HTMLForm.posting(to: "/login/mfa", in: step), ["code": typed])
                XCTAssertEqual(answer.status, expected, "\(typed): \(answer.bodyString)")
            }
        }
    }

    func testWrongCodesOnThePageAreThrottledWithRetryAfter() async throws {
        try await withMFAApp(settings: ["LOGIN_MAX_FAILURES": "2", "LOGIN_WINDOW": "60"]) { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            let browser = BrowserClient(app.client)
            let step = try await browser.signIn(enrolled.user.username)
            let form = try HTMLForm.posting(to: "/login/mfa", in: step)
            for _ in 1...2 { _ = try await browser.submit(form, ["code": enrolled.code(at: clock, offset: 9)]) }
            let throttled = try await browser.submit(form, ["code": enrolled.code(at: clock)])
            XCTAssertEqual(throttled.status, .tooManyRequests, throttled.bodyString)
            XCTAssertNotNil(throttled.headers["Retry-After"].flatMap { Int($0) })
            throttled.assertPageHeaders()
            XCTAssertEqual(try HTMLForm.posting(to: "/login/mfa", in: throttled).value("mfa_token"), form.value("mfa_token"))
        }
    }
}
