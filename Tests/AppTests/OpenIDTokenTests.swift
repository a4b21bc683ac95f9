import AppTesting
import Crypt
import Foundation
import JOSE
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The token endpoint under OpenID Connect: one ID token per code however many redemptions
/// race (§3.1.3.3), refresh tokens for `offline_access` (§11) and refreshed ID tokens of the
/// same sign-in (§12.2), and the ES256 a client may register (Registration §2).
final class OpenIDTokenTests: XCTestCase {
    /// A race: the same code redeemed four times at once buys one answer, one ID token.
    func testTheSameCodeRedeemedConcurrentlyBuysExactlyOneIDToken() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "wolffe", on: app)
            let rp = try await RelyingParty.register(on: app)
            let browser = BrowserClient(app.client)
            let pkce = PKCEPair()
            let query = try await rp.signIn(browser, "wolffe", target: rp.authorize(pkce))
            let code = try XCTUnwrap(query["code"])
            let client = app.client
            let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<4 { group.addTask { try await rp.redeem(client, code: code, pkce: pkce) } }
                return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
            }
            XCTAssertEqual(answers.map(\.status.code).sorted(), [200, 400, 400, 400])
            let idTokens = try answers.compactMap { try JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any] }
                .compactMap { $0["id_token"] as? String }
            XCTAssertEqual(idTokens.count, 1, "one ID token")
            for refused in answers where refused.status.code == 400 { assertOAuthError(refused, 400, "invalid_grant") }
        }
    }

    /// `offline_access` buys a refresh token although the client did not register the grant,
    /// and that token is redeemable; each refresh carries a new ID token of the same sign-in:
    /// the same `sub`, `aud`, `azp` and `auth_time`, a new `at_hash`, no `nonce`.
    func testOfflineAccessBuysARefreshTokenWhoseRefreshesCarryTheSameSignIn() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "gregor", on: app)
            let rp = try await RelyingParty.register(on: app)  // grant_types: authorization_code only
            let browser = BrowserClient(app.client)
            let first = try await rp.tokens(app, browser, "gregor", scope: "openid profile offline_access")
            let original = try DecodedIDToken(try XCTUnwrap(first["id_token"] as? String))
            var refreshToken = try XCTUnwrap(first["refresh_token"] as? String, "offline_access")
            for round in 1...2 {
                let response = try await app.client.postForm(
                    "/oauth/token", [("grant_type", "refresh_token"), ("refresh_token", refreshToken)], auth: rp.auth)
                XCTAssertEqual(response.status.code, 200, "round \(round): \(response.bodyString)")
                let answer = try response.jsonObject()
                let access = try XCTUnwrap(answer["access_token"] as? String)
                let refreshed = try await DecodedIDToken.verified(try XCTUnwrap(answer["id_token"] as? String, "round \(round)"), against: app.client)
                for claim in ["iss", "sub", "aud", "azp", "auth_time", "preferred_username"] {
                    XCTAssertEqual("\(refreshed.claims[claim] ?? "nil")", "\(original.claims[claim] ?? "nil")", "round \(round): \(claim)")
                }
                XCTAssertNil(refreshed.claims["nonce"], "round \(round)")
                XCTAssertEqual(refreshed.claims["at_hash"] as? String, IDTokenClaims.atHash(of: access))
                refreshToken = try XCTUnwrap(answer["refresh_token"] as? String)
            }
            // A narrowing refresh without openid: the access token only.
            let narrowed = try await app.client.postForm(
                "/oauth/token", [("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("scope", "profile")], auth: rp.auth)
            XCTAssertEqual(narrowed.status.code, 200, narrowed.bodyString)
            XCTAssertNil(try narrowed.jsonObject()["id_token"])
        }
    }

    /// Without `offline_access` and without the grant: no refresh token; and a refresh token
    /// of a grant without `offline_access` is refused to a client not registered for refreshes.
    func testWithoutOfflineAccessOrTheGrantThereIsNoRefreshToken() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "bly", on: app)
            let rp = try await RelyingParty.register(on: app)
            let answer = try await rp.tokens(app, BrowserClient(app.client), "bly", scope: "openid")
            XCTAssertNil(answer["refresh_token"])
            let registeredForRefresh = try await RelyingParty.register(on: app, ["grant_types": ["authorization_code", "refresh_token"]])
            let withGrant = try await registeredForRefresh.tokens(app, BrowserClient(app.client), "bly", scope: "openid")
            XCTAssertNotNil(withGrant["refresh_token"], "the client registered the refresh_token grant")
            // Stored offline_access-free grant, client's registration then narrowed: refused.
            try await app.til.db.execute("UPDATE oauth_clients SET grant_types = 'authorization_code' WHERE id = \(registeredForRefresh.client.id)")
            let refused = try await app.client.postForm(
                "/oauth/token", [("grant_type", "refresh_token"), ("refresh_token", try XCTUnwrap(withGrant["refresh_token"] as? String))],
                auth: registeredForRefresh.auth)
            assertOAuthError(refused, 400, "unauthorized_client")
        }
    }

    /// Registration §2: ES256 on request, echoed; the ID tokens then say ES256. Anything else
    /// (`none`, HS256, a lowercase spelling) is `invalid_client_metadata`.
    func testAClientMayRegisterES256AndNothingElseButRS256() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "howzer", on: app)
            let token = try await app.client.clientsWriteToken()
            for bad in ["none", "HS256", "es256", "RS512", ""] {
                let response = try await app.client.register(
                    ["redirect_uris": ["https://rp.example/cb"], "id_token_signed_response_alg": bad], token: token)
                assertOAuthError(response, 400, "invalid_client_metadata", bad)
            }
            let numeric = try await app.client.register(["redirect_uris": ["https://rp.example/cb"], "id_token_signed_response_alg": 256], token: token)
            XCTAssertEqual(numeric.status.code, 400, numeric.bodyString)
            let plain = try await app.client.registeredClient(["redirect_uris": ["https://rp.example/cb"]])
            XCTAssertEqual(plain["id_token_signed_response_alg"] as? String, "RS256")
            let rp = try await RelyingParty.register(on: app, ["id_token_signed_response_alg": "ES256"])
            let answer = try await rp.tokens(app, BrowserClient(app.client), "howzer", scope: "openid")
            let es256 = try await DecodedIDToken.verified(try XCTUnwrap(answer["id_token"] as? String), against: app.client)
            XCTAssertEqual(es256.header["alg"] as? String, "ES256")
            let published = try JSONDecoder().decode(JWKSet.self, from: Data(try await app.client.send(.get, OpenIDEndpoints.jwks).body))
            XCTAssertEqual(published.keys.first { $0.kid == es256.header["kid"] as? String }?.alg, "ES256", "signed by the P-256 key")
        }
    }
}
