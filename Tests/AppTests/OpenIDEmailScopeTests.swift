import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// OpenID Connect's `email` scope (Core §5.4): `email` and `email_verified` in userinfo and the
/// ID token, for the account's verified address only; an unverified address or none leaves
/// both claims out; without the scope neither is there, and the consent page says what it lets
/// the application see.
final class OpenIDEmailScopeTests: XCTestCase {
    func testTheEmailScopeGivesTheVerifiedAddressInUserInfoAndTheIDToken() async throws {
        try await withTestApp { app in
            let user = try await app.user("mara", email: "Mar\u{E4}@til.example", verified: true)
            let rp = try await RelyingParty.register(on: app)
            let browser = BrowserClient(app.client)
            let answer = try await rp.tokens(app, browser, "mara", scope: "openid email")
            let idToken = try DecodedIDToken(try XCTUnwrap(answer["id_token"] as? String))
            XCTAssertEqual(idToken.claims["email"] as? String, "Mar\u{E4}@til.example")
            XCTAssertEqual(idToken.claims["email_verified"] as? Bool, true)
            XCTAssertNil(idToken.claims["preferred_username"], "profile was not asked for")
            let access = try XCTUnwrap(answer["access_token"] as? String)
            let info = try await app.client.send(.get, "/oauth/userinfo", auth: .bearer(access)).jsonObject()
            XCTAssertEqual(Set(info.keys), ["sub", "email", "email_verified"])
            XCTAssertEqual(info["sub"] as? String, user.id.uuidString.lowercased())
            XCTAssertEqual(info["email"] as? String, "Mar\u{E4}@til.example")
            XCTAssertEqual(info["email_verified"] as? Bool, true)
            let me = try await app.client.profile(access)
            XCTAssertEqual(me.email, "Mar\u{E4}@til.example", "the email scope also shows it at /api/users/me")

            let without = try await rp.accessToken(app, browser, "mara", scope: "openid profile")
            let profileOnly = try await app.client.send(.get, "/oauth/userinfo", auth: .bearer(without)).jsonObject()
            XCTAssertEqual(Set(profileOnly.keys), ["sub", "name", "preferred_username"], "no address without the scope")
            let meWithout = try await app.client.send(.get, "/api/users/me", auth: .bearer(without))
            XCTAssertFalse(meWithout.bodyString.contains("email"), meWithout.bodyString)
        }
    }

    func testAnUnverifiedAddressOrNoneIsNoClaim() async throws {
        try await withTestApp { app in
            _ = try await app.user("nell", email: "nell@til.example", verified: false)
            _ = try await User.create(username: "otto", on: app)
            let rp = try await RelyingParty.register(on: app)
            for username in ["nell", "otto"] {
                let answer = try await rp.tokens(app, BrowserClient(app.client), username, scope: "openid email")
                let idToken = try DecodedIDToken(try XCTUnwrap(answer["id_token"] as? String))
                XCTAssertNil(idToken.claims["email"], username)
                XCTAssertNil(idToken.claims["email_verified"], username)
                let access = try XCTUnwrap(answer["access_token"] as? String)
                let info = try await app.client.send(.get, "/oauth/userinfo", auth: .bearer(access)).jsonObject()
                XCTAssertEqual(Set(info.keys), ["sub"], "\(username): \(info)")
            }
        }
    }

    /// A refreshed ID token reads the address again: one verified since the sign-in appears.
    func testARefreshedIDTokenCarriesTheAddressAsItIsNow() async throws {
        try await withTestApp { app in
            let user = try await app.user("pax", email: "pax@til.example", verified: false)
            let rp = try await RelyingParty.register(on: app)
            let first = try await rp.tokens(app, BrowserClient(app.client), "pax", scope: "openid email offline_access")
            XCTAssertNil(try DecodedIDToken(try XCTUnwrap(first["id_token"] as? String)).claims["email"])
            try await app.til.db.execute("UPDATE users SET email_verified_at = now() WHERE id = \(user.id)")
            let refreshed = try await app.client.postForm(
                "/oauth/token", [("grant_type", "refresh_token"), ("refresh_token", try XCTUnwrap(first["refresh_token"] as? String))],
                auth: rp.auth)
            XCTAssertEqual(refreshed.status.code, 200, refreshed.bodyString)
            let idToken = try DecodedIDToken(try XCTUnwrap(try refreshed.jsonObject()["id_token"] as? String))
            XCTAssertEqual(idToken.claims["email"] as? String, "pax@til.example")
            XCTAssertEqual(idToken.claims["email_verified"] as? Bool, true)
        }
    }

    func testDiscoveryAndTheConsentPageNameTheScope() async throws {
        try await withTestApp { app in
            let metadata = try await app.client.send(.get, "/.well-known/openid-configuration").jsonObject()
            XCTAssertTrue((metadata["scopes_supported"] as? [String])?.contains("email") == true)
            let claims = try XCTUnwrap(metadata["claims_supported"] as? [String])
            XCTAssertTrue(claims.contains("email") && claims.contains("email_verified"), "\(claims)")

            _ = try await User.create(username: "quill", on: app)
            let rp = try await RelyingParty.register(on: app)
            let browser = BrowserClient(app.client)
            _ = try await browser.signIn("quill")
            let consent = try await browser.get(rp.authorize(PKCEPair(), scope: "openid email"))
            XCTAssertEqual(consent.status, .ok, consent.bodyString)
            XCTAssertTrue(consent.bodyString.contains("See your email address"), consent.bodyString)
            XCTAssertTrue(consent.bodyString.contains("<code>email</code>"))
        }
    }
}
