import AppTesting
import Foundation
import OneTimePasswords
import Postgres
import QRCode
import Web
import WebTesting
import XCTest
@testable import App

/// The account page's two-step sign-in section: enrolment with the QR code shown inline, the
/// recovery codes shown once, and turning it off or renewing the codes with a proof.
final class AccountTOTPPageTests: ServerProcessTestCase {
    /// Signs `username` in and starts an enrolment from the account page: the enrolment page
    /// and the secret it shows.
    private func startEnrolment(_ browser: BrowserClient, _ username: String) async throws -> (page: TestResponse, secret: [UInt8]) {
        let account = try await browser.accountPage(signingInAs: username)
        let page = try await browser.submit(try HTMLForm.posting(to: "/account/totp", in: account))
        XCTAssertEqual(page.status, .ok, page.bodyString)
        let shown = try XCTUnwrap(page.bodyString.range(of: #"<code id="totp-secret">"#).map { page.bodyString[$0.upperBound...] })
        let secret = try XCTUnwrap(Base32.decode(String(shown.prefix { $0 != "<" }).replacingOccurrences(of: " ", with: "")))
        return (page, secret)
    }

    func testEnrolmentShowsTheQRCodeInlineThenTheRecoveryCodesOnce() async throws {
        try await withMFAApp { app, clock in
            let user = try await User.create(username: "zoë", on: app)
            let browser = BrowserClient(app.client)
            let (page, secret) = try await startEnrolment(browser, "zoë")
            page.assertPageHeaders()
            XCTAssertFalse(page.headers["Content-Security-Policy"]?.contains("img-src") == true, "inline SVG: nothing to allow")
            XCTAssertTrue(page.bodyString.contains(#"<figure class="qr"><svg xmlns="http://www.w3.org/2000/svg""#), page.bodyString)
            XCTAssertTrue(page.bodyString.contains(#"role="img" aria-label="QR code""#))
            XCTAssertEqual(secret.count, 20, "160 bits")
            let confirm = try HTMLForm.posting(to: "/account/totp/confirm", in: page)
            let malformed = try await browser.submit(confirm, ["code": "12345"])
            XCTAssertEqual(malformed.status, .badRequest)
            XCTAssertTrue(malformed.bodyString.contains(#"role="alert""#) && malformed.bodyString.contains("totp-secret"), "the same secret, with why")
            let wrong = try await browser.submit(confirm, ["code": TOTP(secret: secret).code(at: clock.now.addingTimeInterval(300))])
            XCTAssertEqual(wrong.status, .forbidden)
            XCTAssertTrue(wrong.bodyString.contains("That code does not match"), wrong.bodyString)
            let fullWidth = String(TOTP(secret: secret).code(at: clock.now).unicodeScalars.map { Character(Unicode.Scalar($0.value + 0xFEE0)!) })
            let codes = try await browser.submit(confirm, ["code": fullWidth])
            XCTAssertEqual(codes.status, .ok, codes.bodyString)
            codes.assertPageHeaders()
            let shown = codes.bodyString.components(separatedBy: "<li><code>").dropFirst().map { String($0.prefix { $0 != "<" }) }
            XCTAssertEqual(shown.count, 10)
            let stored = try await app.number("SELECT count(*)::int AS n FROM recovery_codes WHERE user_id = \(user.id)")
            XCTAssertEqual(stored, 10)
            let account = try await browser.get("/account")
            XCTAssertTrue(account.bodyString.contains("10 recovery codes left"), account.bodyString)
            XCTAssertNotNil(HTMLForm.all(in: account.bodyString).first { $0.action == "/account/totp/disable" })
            let again = try await browser.submit(confirm, ["code": TOTP(secret: secret).code(at: clock.now)])
            XCTAssertEqual(again.status, .conflict, "the codes are never shown twice")
            let restart = try await browser.post("/account/totp", [("csrf_token", try XCTUnwrap(account.csrfMeta))])
            XCTAssertEqual(restart.status, .conflict, "on already: turn it off first")
        }
    }

    /// The confirm form posted twice at once (two tabs): one answer shows the codes, the other
    /// says nothing is pending; one set of ten is stored.
    func testTwoConfirmationsRacingTurnItOnOnce() async throws {
        try await withMFAApp { app, clock in
            let user = try await User.create(username: "race", on: app)
            let browser = BrowserClient(app.client)
            let (page, secret) = try await startEnrolment(browser, "race")
            let form = try HTMLForm.posting(to: "/account/totp/confirm", in: page)
            let statuses = try await browser.submitTwiceAtOnce(form, ["code": TOTP(secret: secret).code(at: clock.now)])
            XCTAssertEqual(statuses, [200, 409])
            let stored = try await app.number("SELECT count(*)::int AS n FROM recovery_codes WHERE user_id = \(user.id)")
            XCTAssertEqual(stored, 10)
        }
    }

    func testTurningItOffAndNewCodesNeedThePasswordAndACode() async throws {
        try await withMFAApp(settings: ["LOGIN_MAX_FAILURES": "20"]) { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            let browser = BrowserClient(app.client)
            let step = try await browser.signIn(enrolled.user.username)
            _ = try await browser.submit(try HTMLForm.posting(to: "/login/mfa", in: step), ["code": enrolled.code(at: clock)])
            clock.advance(steps: 1)
            let account = try await browser.get("/account")
            let renew = try HTMLForm.posting(to: "/account/recovery-codes", in: account)
            let disable = try HTMLForm.posting(to: "/account/totp/disable", in: account)
            for (changes, status, message) in [
                (["current_password": "wrong", "code": enrolled.code(at: clock)], HTTPStatus.forbidden, "The current password is wrong."),
                (["current_password": "password", "code": enrolled.code(at: clock, offset: 5)], .forbidden, "The code is wrong"),
                (["current_password": "password", "code": "not a code"], .badRequest, "Enter the 6-digit code"),
                (["current_password": "", "code": enrolled.code(at: clock)], .badRequest, "Enter your current password."),
            ] {
                let refused = try await browser.submit(disable, changes)
                XCTAssertEqual(refused.status, status, "\(changes)")
                refused.assertPageHeaders()
                XCTAssertTrue(refused.bodyString.contains(#"<details class="alternative" open>"#), "the form is shown open")
                XCTAssertTrue(refused.bodyString.contains(#"id="disable-error">\#(message)"#), refused.bodyString)
            }
            // A recovery code as people type it proves new codes; the old set is gone.
            let typed = enrolled.recoveryCodes[0].lowercased().replacingOccurrences(of: "-", with: " ")
            let renewed = try await browser.submit(renew, ["current_password": "password", "code": typed])
            XCTAssertEqual(renewed.status, .ok, renewed.bodyString)
            XCTAssertTrue(renewed.bodyString.contains("Your old recovery codes no longer work."))
            let fresh = renewed.bodyString.components(separatedBy: "<li><code>").dropFirst().map { String($0.prefix { $0 != "<" }) }
            XCTAssertEqual(fresh.count, 10)
            XCTAssertTrue(Set(fresh).isDisjoint(with: enrolled.recoveryCodes))
            let off = try await browser.submit(disable, ["current_password": "password", "code": enrolled.code(at: clock)])
            XCTAssertEqual(off.location, "/account?notice=totp-disabled", off.bodyString)
            let rows = try await app.number("SELECT (SELECT count(*) FROM totp_credentials) + (SELECT count(*) FROM recovery_codes) AS n")
            XCTAssertEqual(rows, 0)
            let plain = try await BrowserClient(app.client).signIn(enrolled.user.username)
            XCTAssertEqual(plain.location, "/account", "a password alone signs in again")
        }
    }

    func testEveryTOTPFormRefusesAMissingOrForeignTokenAndChangesNothing() async throws {
        try await withMFAApp { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            _ = try await User.create(username: "mallory", on: app)
            let attacker = BrowserClient(app.client)
            let attackerPage = try await attacker.accountPage(signingInAs: "mallory")
            let foreign = try XCTUnwrap(attackerPage.csrfMeta)
            let victim = BrowserClient(app.client)
            let step = try await victim.signIn(enrolled.user.username)
            _ = try await victim.submit(try HTMLForm.posting(to: "/login/mfa", in: step), ["code": enrolled.code(at: clock)])
            for action in ["/account/totp", "/account/totp/confirm", "/account/totp/disable", "/account/recovery-codes"] {
                for token in [nil, foreign] {
                    let fields = [("current_password", "password"), ("code", enrolled.code(at: clock, offset: 1))] + (token.map { [("csrf_token", $0)] } ?? [])
                    let refused = try await victim.post(action, fields)
                    XCTAssertEqual(refused.status, .forbidden, action)
                }
            }
            let signedOut = BrowserClient(app.client)
            let toSignIn = try await signedOut.get("/account")
            XCTAssertEqual(try HTMLForm.only(in: toSignIn).value("return_to"), "/account")
            let on = try await app.number("SELECT count(*)::int AS n FROM totp_credentials WHERE confirmed_at IS NOT NULL")
            XCTAssertEqual(on, 1)
            let codes = try await app.number("SELECT count(*)::int AS n FROM recovery_codes")
            XCTAssertEqual(codes, 10)
        }
    }

    /// A name stored NFC, signed in with its NFD spelling in upper case: the enrolment's QR code
    /// is the otpauth URI of the stored name, and the shown secret's code turns TOTP on.
    func testAUnicodeNameSignedInOtherwiseEnrolsUnderItsStoredName() async throws {
        try await withMFAApp { app, clock in
            let user = try await User.create(username: "Zoë Ångström-Ñ", on: app)
            let browser = BrowserClient(app.client)
            let (page, secret) = try await startEnrolment(browser, "ZOE\u{308} A\u{30A}NGSTRO\u{308}M-N\u{303}")
            let label = "Zo%C3%AB%20%C3%85ngstr%C3%B6m-%C3%91"
            let uri = "otpauth://totp/TIL:\(label)?secret=\(Base32.encode(secret))&issuer=TIL"
            let svg = try QRCode(encoding: uri).svg(pixelsPerModule: 4)
            XCTAssertTrue(page.bodyString.contains(#"<figure class="qr">\#(svg)</figure>"#), "the QR code of \(uri): \(page.bodyString)")
            let codes = try await browser.submit(
                try HTMLForm.posting(to: "/account/totp/confirm", in: page), ["code": TOTP(secret: secret).code(at: clock.now)])
            XCTAssertEqual(codes.status, .ok, codes.bodyString)
            let on = try await app.number("SELECT count(*)::int AS n FROM totp_credentials WHERE user_id = \(user.id) AND confirmed_at IS NOT NULL")
            XCTAssertEqual(on, 1)
            let stored = try await app.number("SELECT count(*)::int AS n FROM recovery_codes WHERE user_id = \(user.id)")
            XCTAssertEqual(stored, 10)
            clock.advance(steps: 1)
            let later = BrowserClient(app.client)
            let step = try await later.signIn("zoë ångström-ñ")
            let signedIn = try await later.submit(
                try HTMLForm.posting(to: "/login/mfa", in: step), ["code": TOTP(secret: secret).code(at: clock.now)])
            XCTAssertEqual(signedIn.location, "/account", "the shown secret's next code is the second step: \(signedIn.bodyString)")
        }
    }

    /// An enrolment started on process A is confirmed on process B (real clock), and A's
    /// account page then shows it on.
    func testAnEnrolmentStartedOnOneProcessIsConfirmedOnAnother() async throws {
        _ = try await withTestApp { app in try await User.create(username: "ivo-totp", on: app) }
        servers = try await ServerProcess.healthy(2, settings: ["ISSUER": "http://127.0.0.1:9"])
        let onA = BrowserClient(servers[0].client), onB = BrowserClient(servers[1].client)
        let (page, secret) = try await startEnrolment(onA, "ivo-totp")
        onB.setCookie("til_session", onA.cookies["til_session"])
        let codes = try await onB.submit(
            try HTMLForm.posting(to: "/account/totp/confirm", in: page), ["code": TOTP(secret: secret).code(at: Date())])
        XCTAssertEqual(codes.status, .ok, codes.bodyString)
        let account = try await onA.get("/account")
        XCTAssertTrue(account.bodyString.contains("10 recovery codes left"), account.bodyString)
    }
}
