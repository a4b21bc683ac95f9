import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebAuthn
import WebAuthnTesting
import WebTesting
import XCTest
@testable import App

/// The code step of the sign-in page offers the passkey: the script's calls with the mfaToken
/// finish the sign-in, the browser session recording ["pwd","hwk","mfa"].
final class PasskeySecondStepPageTests: XCTestCase {
    func testThePasskeyButtonOfTheCodeStepFinishesTheSignIn() async throws {
        let capture = LogCapture()
        try await withMFAApp(logger: capture.logger()) { app, clock in
            let enrolled = try await app.enrolledUser(username: "stepper", clock: clock)
            var authenticator = try PasskeyCeremony.authenticator(.edDSA)
            try await PasskeyCeremony(client: app.client).registered(&authenticator, token: enrolled.session.value)

            let browser = BrowserClient(app.client)
            let form = try HTMLForm.only(in: try await browser.get("/login"))
            let step = try await browser.submit(form, ["username": "stepper", "password": "password"])
            XCTAssertEqual(step.status.code, 200, step.bodyString)
            let html = step.bodyString
            XCTAssertTrue(html.contains(#"id="passkey-second-factor""#), "the passkey is offered: \(html)")
            XCTAssertTrue(step.headers["Content-Security-Policy"]?.contains("script-src 'self'") == true)
            let mfaToken = try XCTUnwrap(HTMLForm.all(in: html).compactMap { $0.value("mfa_token") ?? $0.value("mfaToken") }.first)
            let csrf = try XCTUnwrap(HTMLForm.all(in: html).compactMap { $0.value("csrf_token") }.first)

            let json: (String) -> [UInt8] = { Array($0.utf8) }
            let options = try await browser.send(
                .post, "/login/passkey/options", body: json(#"{"mfaToken":"\#(mfaToken)"}"#), contentType: "application/json",
                headers: ["X-CSRF-Token": csrf])
            XCTAssertEqual(options.status.code, 200, options.bodyString)
            let request = try options.decode(PasskeyOptionsTests.Request.self)
            XCTAssertEqual(request.allowCredentials.map(\.id), [Base64URL.encode(authenticator.credentialID)])
            let assertion = try authenticator.assert(challenge: try XCTUnwrap(Base64URL.decode(request.challenge)))
            let body = Data(#"{"mfaToken":"\#(mfaToken)","credential":"#.utf8) + assertion + Data("}".utf8)
            let done = try await browser.send(.post, "/login/passkey", body: Array(body), contentType: "application/json", headers: ["X-CSRF-Token": csrf])
            XCTAssertEqual(done.status.code, 200, done.bodyString)
            XCTAssertEqual(done.bodyString, #"{"next":"/account"}"#)
            let amr = try await app.til.db.query("""
                SELECT array_to_string(amr, ' ') AS amr FROM sessions WHERE user_id = \(enrolled.user.id) AND kind = 'browser'
                """).first?.decode(column: "amr", as: String.self)
            XCTAssertEqual(amr, "pwd hwk mfa")
            let events = capture.lines.compactMap { $0.metadata["event"] }
            let signIn = events.drop { $0 != "login.mfa-required" }
            XCTAssertEqual(Array(signIn), ["login.mfa-required", "login.mfa-succeeded"], "audited as the API's second step is: \(events)")
            let account = try await browser.get("/account")
            XCTAssertEqual(account.status.code, 200)
            XCTAssertTrue(account.bodyString.contains("stepper"))
        }
    }
}
