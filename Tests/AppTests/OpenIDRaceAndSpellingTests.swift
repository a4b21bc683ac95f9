import AppTesting
import Foundation
import JOSE
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The review's audit of issue 19 found these kinds missing for OpenID Connect's endpoints:
/// two requests at once on one secret (an access token at userinfo while it is revoked, one
/// `id_token_hint` at the end-session endpoint twice, two key rotations), and Unicode spellings
/// of one `nonce` and of a `post_logout_redirect_uri`.
final class OpenIDRaceAndSpellingTests: XCTestCase {
    /// Userinfo calls in flight while their token is revoked: each is answered 200 or 401 (never
    /// a 500), and once the revocation has answered no call succeeds.
    func testUserInfoRacingARevocationOfItsTokenNeverSucceedsAfterIt() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "fives", on: app)
            let rp = try await RelyingParty.register(on: app)
            let access = try await rp.accessToken(app, BrowserClient(app.client), "fives", scope: "openid profile")
            let (http, auth) = (app.client, rp.auth)
            let calls = try await withThrowingTaskGroup(of: TestResponse?.self) { group in
                for index in 0..<9 {
                    group.addTask {
                        if index == 4 {
                            let revoked = try await http.postForm("/oauth/revoke", [("token", access)], auth: auth)
                            XCTAssertEqual(revoked.status.code, 200, revoked.bodyString)
                            return nil
                        }
                        return try await http.send(.get, "/oauth/userinfo", auth: .bearer(access))
                    }
                }
                return try await group.reduce(into: [TestResponse]()) { if let response = $1 { $0.append(response) } }
            }
            XCTAssertEqual(calls.count, 8)
            for call in calls {
                XCTAssertTrue([200, 401].contains(call.status.code), call.bodyString)
            }
            let after = try await http.send(.get, "/oauth/userinfo", auth: .bearer(access))
            XCTAssertEqual(after.status.code, 401, after.bodyString)
            XCTAssertTrue(after.headers["WWW-Authenticate"]?.contains(#"error="invalid_token""#) == true)
        }
    }

    /// The same hint sent twice at once from one browser: both end at the registered URI with
    /// their `state`, and the browser session is ended exactly once (no 500 from the loser).
    func testOneHintSentTwiceAtOnceSignsOutOnceAndReturnsBoth() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "echo", on: app)
            let rp = try await RelyingParty.register(on: app)
            let browser = BrowserClient(app.client)
            let answer = try await rp.tokens(app, browser, "echo", scope: "openid")
            let hint = try XCTUnwrap(answer["id_token"] as? String)
            var headers = HTTPHeaders()
            headers.add(name: "Cookie", value: browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
            let target = "/oauth/logout?" + QueryEncoding.encode([
                (name: "id_token_hint", value: hint), (name: "post_logout_redirect_uri", value: RelyingParty.postLogoutURI),
                (name: "state", value: "twice"),
            ])
            let http = app.client
            async let first = http.send(.get, target, headers: headers)
            async let second = http.send(.get, target, headers: headers)
            for response in try await [first, second] {
                XCTAssertEqual(response.status, .seeOther, response.bodyString)
                XCTAssertEqual(response.location, RelyingParty.postLogoutURI + "?state=twice")
            }
            let live = try await app.til.db.query("SELECT count(*) AS n FROM sessions WHERE kind = 'browser' AND revoked_at IS NULL")
                .first?.decode(column: "n", as: Int64.self)
            XCTAssertEqual(live, 0)
            let signedIn = try await browser.isSignedIn()
            XCTAssertFalse(signedIn)
        }
    }

    /// `nonce` is the client's, verbatim (Core §3.1.2.1): a composed and a decomposed spelling
    /// of one word each come back byte for byte, never normalized onto the other.
    func testEachUnicodeSpellingOfANonceComesBackByteForByte() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "hevy", on: app)
            let rp = try await RelyingParty.register(on: app)
            let browser = BrowserClient(app.client)
            let spellings = ["caf\u{E9}-n", "cafe\u{301}-n", "\u{FF23}afe-n"]
            for nonce in spellings {
                let answer = try await rp.tokens(app, browser, "hevy", scope: "openid", nonce: nonce)
                let claims = try DecodedIDToken(try XCTUnwrap(answer["id_token"] as? String)).claims
                let echoed = try XCTUnwrap(claims["nonce"] as? String)
                XCTAssertEqual(Array(echoed.unicodeScalars), Array(nonce.unicodeScalars), "the nonce as sent")
            }
        }
    }

    /// `post_logout_redirect_uri` is matched exactly (RP-Initiated Logout §3): spellings that a
    /// normalizing comparison would fold onto the registered URI (fullwidth letters, a Unicode
    /// hyphen, percent-encoding, a trailing slash) are each a 400 page, never a redirect, and
    /// the browser session stays.
    func testSpellingsOfTheRegisteredLogoutURIAreRefusedNotFolded() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "jesse", on: app)
            let rp = try await RelyingParty.register(on: app)
            let browser = BrowserClient(app.client)
            _ = try await rp.tokens(app, browser, "jesse", scope: "openid")
            let spellings = [
                "https://rp.example/\u{FF53}igned-out", "https://rp.example/signed\u{2010}out", "https://rp.example/%73igned-out",
                "https://rp.example/signed-out/", "https://rp.\u{FF45}xample/signed-out",
            ]
            for spelling in spellings {
                let response = try await browser.get("/oauth/logout?" + QueryEncoding.encode([
                    (name: "client_id", value: rp.client.id), (name: "post_logout_redirect_uri", value: spelling),
                ]))
                XCTAssertEqual(response.status, .badRequest, spelling + ": " + response.bodyString)
                XCTAssertNil(response.location, spelling)
            }
            let signedIn = try await browser.isSignedIn()
            XCTAssertTrue(signedIn, "a refused logout ends nothing")
        }
    }

    /// Two `keys rotate --activate` at once (two operators, or a retried deploy step): each adds
    /// its own key, and afterwards exactly one key of the algorithm signs, the other new one
    /// is retired behind it, and tokens of both still verify.
    func testTwoRotationsAtOnceLeaveOneSigningKey() async throws {
        try await withEmptySigningKeys { app in
            let ring = app.til.signingKeys
            let before = try await ring.sign(TestClaims(), algorithm: .rs256)
            let administration = app.til.signingKeyAdministration
            async let first = administration.rotate([.rs256], activate: true)
            async let second = administration.rotate([.rs256], activate: true)
            let added = try await (first + second).map(\.kid)
            XCTAssertEqual(Set(added).count, 2, "each rotation its own key")
            try await ring.reload()
            let keys = try await administration.list().filter { $0.algorithm == .rs256 }
            XCTAssertEqual(keys.filter { $0.status == "active" }.count, 1, "\(keys.map(\.status))")
            XCTAssertEqual(keys.filter { $0.status == "retired" }.count, 2, "the first key and the earlier of the two new ones")
            let after = try await ring.sign(TestClaims(), algorithm: .rs256)
            XCTAssertTrue(added.contains(try kid(of: after)))
            for token in [before, after] {
                let payload = try await ring.verify(token)
                XCTAssertEqual(try JSONDecoder().decode(TestClaims.self, from: payload), TestClaims())
            }
        }
    }
}
