import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// RFC 9470 §4: a client that is not allowed to collect the password steps up through the
/// authorization endpoint with `max_age`, for plain OAuth as for OpenID Connect. A browser
/// whose sign-in is older is shown the sign-in form, and the session the new code starts
/// carries the new sign-in's time; without `max_age` it inherits the old one.
final class StepUpAuthorizationTests: XCTestCase {
    func testMaxAgeForcesAFreshSignInAndTheNewSessionCarriesIt() async throws {
        try await withTestApp { app in
            let user = try await User.create(username: "wedge", on: app)
            let client = try await StoredClient.create(redirectURIs: ["https://app.example/cb"], scope: ["acronyms:write"], trusted: true, on: app)
            let browser = BrowserClient(app.client)
            try await browser.signIn("wedge")
            try await app.ageAuthentications(ofUser: user.id, by: 700)

            let first = PKCEPair()
            let plain = try await browser.get(AuthorizationFlowTests.authorize(client, first))
            let inherited = try await redeemedSessionAge(plain, client, app, pkce: first)
            XCTAssertEqual(inherited, 700, accuracy: 5, "no max_age: the old sign-in goes on")

            let pkce = PKCEPair()
            let stepUp = AuthorizationFlowTests.authorize(client, pkce, [("max_age", "600")])
            let form = try await browser.get(stepUp)
            XCTAssertEqual(form.status, .ok, "the sign-in form, not a code: \(form.headers["Location"] ?? "")")
            let login = try HTMLForm.only(in: form)
            XCTAssertEqual(login.action, "/login")
            let back = try await browser.submit(login, ["username": "wedge", "password": "password"])
            let again = try await browser.get(try XCTUnwrap(back.location))
            let fresh = try await redeemedSessionAge(again, client, app, pkce: pkce)
            XCTAssertLessThan(fresh, 5, "the new sign-in's time")
        }
    }

    /// Redeems the code `answer` redirects with; the seconds since its session's `auth_time`.
    private func redeemedSessionAge(
        _ answer: TestResponse, _ client: StoredClient, _ app: TestApp, pkce: PKCEPair
    ) async throws -> Double {
        XCTAssertEqual(answer.status, .seeOther, answer.bodyString)
        let code = try XCTUnwrap(try answer.redirectQuery()["code"], "no code: \(answer.headers["Location"] ?? "")")
        let redeemed = try await AuthorizationCodeGrantTests.redeem(
            app.client, TestOAuthClient(id: client.id, secret: nil), code: code, verifier: pkce.verifier)
        let token = try XCTUnwrap(try redeemed.jsonObject()["access_token"] as? String, redeemed.bodyString)
        let rows = try await app.til.db.query("""
            SELECT extract(epoch FROM now() - s.auth_time)::float8 AS ago
            FROM tokens t JOIN sessions s ON s.id = t.session_id WHERE t.digest = \(SHA256.hex(of: token))
            """)
        return try XCTUnwrap(try rows.first?.decode(column: "ago", as: Double?.self) ?? nil)
    }
}
