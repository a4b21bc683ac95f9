import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// A second `til-server` over the same database: an OpenID Connect sign-in started on one
/// process is redeemed, answered and ended on the other (its ID token verified against the
/// first one's JWKS), and both publish one discovery document.
final class OpenIDAcrossProcessesTests: XCTestCase {
    func testASignInOnOneProcessIsRedeemedAnsweredAndEndedOnTheOther() async throws {
        let settings = ["ISSUER": "https://til.example", "BCRYPT_COST": "4", "LOG_LEVEL": "warning"]
        try await withTestApp(settings: settings) { app in
            _ = try await User.create(name: "Bo-Katan", username: "bokatan", on: app)
            let rp = try await RelyingParty.register(on: app)
            let a = try ServerProcess(environment: try ServerProcess.testEnvironment(settings))
            let b = try ServerProcess(environment: try ServerProcess.testEnvironment(settings))
            do {
                try await a.waitUntilHealthy()
                try await b.waitUntilHealthy()
                let path = OpenIDEndpoints.configuration
                let (onA, onB) = (try await a.client.send(.get, path), try await b.client.send(.get, path))
                XCTAssertEqual(onA.status.code, 200, onA.bodyString)
                XCTAssertEqual(onA.bodyString, onB.bodyString, "one issuer, one document")

                // Signed in and authorized on A, redeemed on B.
                let browserOnA = BrowserClient(a.client)
                let pkce = PKCEPair()
                let query = try await rp.signIn(browserOnA, "bokatan", target: rp.authorize(pkce, scope: "openid profile"))
                let answer = try await rp.redeem(b.client, code: try XCTUnwrap(query["code"]), pkce: pkce).jsonObject()
                let idToken = try XCTUnwrap(answer["id_token"] as? String, "\(answer)")
                // Issued by B, verified against the keys A publishes.
                let verified = try await DecodedIDToken.verified(idToken, against: a.client)
                XCTAssertEqual(verified.claims["preferred_username"] as? String, "bokatan")
                let info = try await a.client.send(.get, "/oauth/userinfo", auth: .bearer(try XCTUnwrap(answer["access_token"] as? String)))
                XCTAssertEqual(try info.jsonObject()["preferred_username"] as? String, "bokatan", "issued on B, answered on A")

                // Signed out on B with the hint: A's browser session is over.
                let browserOnB = BrowserClient(b.client)
                for (name, value) in browserOnA.cookies { browserOnB.setCookie(name, value) }
                let out = try await browserOnB.get("/oauth/logout?" + QueryEncoding.encode([
                    (name: "id_token_hint", value: idToken), (name: "post_logout_redirect_uri", value: RelyingParty.postLogoutURI),
                    (name: "state", value: "bye"),
                ]))
                XCTAssertEqual(out.location, RelyingParty.postLogoutURI + "?state=bye", out.bodyString)
                let signedIn = try await browserOnA.isSignedIn()
                XCTAssertFalse(signedIn, "ended on B, over on A")
                let silent = try await browserOnA.get(rp.authorize(PKCEPair(), [("prompt", "none")]))
                XCTAssertEqual(try silent.redirectQuery()["error"], "login_required")
            } catch {
                print("A:\n\(a.output)\nB:\n\(b.output)")
                await a.stop(); await b.stop()
                throw error
            }
            await a.stop(); await b.stop()
        }
    }
}
