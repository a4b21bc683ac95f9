import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// RFC 8628 end to end: the device authorization answer, the verification page behind the
/// sign-in, the consent page every time, and the polls' answers in order.
final class DeviceFlowTests: XCTestCase {
    func testTheMetadataNamesTheDeviceEndpointAndGrant() async throws {
        try await withTestApp { app in
            let metadata = try await app.client.send(.get, OAuthEndpoints.authorizationServerMetadata).jsonObject()
            let issuer = try XCTUnwrap(metadata["issuer"] as? String)
            XCTAssertEqual(metadata["device_authorization_endpoint"] as? String, issuer + "/oauth/device_authorization")
            XCTAssertTrue((metadata["grant_types_supported"] as? [String] ?? []).contains("urn:ietf:params:oauth:grant-type:device_code"))
        }
    }

    /// §3.1–§3.5: the answer's fields, `authorization_pending`, `slow_down`, the page's sign-in
    /// and consent (for the trusted `til-cli` too, §5.4), then one token pair, once.
    func testAnApprovedDeviceGetsOneTokenPair() async throws {
        try await withTestApp { app in
            let start = try await app.client.startedDevice()
            let answer = start.answer
            let issuer = try await AuthorizationFlowTests.issuer(app)
            XCTAssertNotNil(start.userCode.range(of: "^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$", options: .regularExpression))
            XCTAssertEqual(Base64URL.decode(start.deviceCode)?.count, 32, "256 random bits")
            XCTAssertEqual(answer["verification_uri"] as? String, issuer + "/device")
            XCTAssertEqual(answer["verification_uri_complete"] as? String, issuer + "/device?user_code=" + start.userCode)
            XCTAssertEqual(answer["expires_in"] as? Int, 600)
            XCTAssertEqual(answer["interval"] as? Int, 5)
            let stored = try await app.til.db.query("SELECT digest, user_code, scopes FROM oauth_device_codes")
            XCTAssertEqual(stored.count, 1)
            XCTAssertEqual(try stored[0].decode(column: "digest", as: String.self), SHA256.hex(of: start.deviceCode), "a digest only")
            XCTAssertEqual(try stored[0].decode(column: "user_code", as: String.self), start.userCode.replacingOccurrences(of: "-", with: ""))
            XCTAssertEqual(try stored[0].decode(column: "scopes", as: String.self), "acronyms:write categories:write users:write account")

            assertOAuthError(try await app.client.pollDevice(start.deviceCode), 400, "authorization_pending")
            assertOAuthError(try await app.client.pollDevice(start.deviceCode), 400, "slow_down", "at once again")

            // The page: sign in first, back to the page with the code filled in.
            let browser = BrowserClient(app.client)
            let complete = "/device?user_code=" + start.userCode
            let login = try await browser.get(complete)
            login.assertPageHeaders()
            XCTAssertEqual(try HTMLForm.only(in: login).value("return_to"), complete)
            let signedIn = try await browser.signIn("admin", at: complete)
            XCTAssertEqual(signedIn.location, complete)
            let page = try await browser.get(complete)
            page.assertPageHeaders()
            XCTAssertTrue(page.bodyString.contains(#"<label for="user-code">Code</label>"#), "a labelled field")
            let form = try HTMLForm.only(in: page)
            XCTAssertEqual(form.action, "/device")
            XCTAssertEqual(form.value("user_code"), start.userCode, "prefilled from verification_uri_complete")
            XCTAssertNotNil(form.value("csrf_token"))
            // The consent page, though til-cli is trusted.
            let consent = try await browser.submit(form)
            XCTAssertEqual(consent.status, .ok, consent.bodyString)
            consent.assertPageHeaders()
            XCTAssertTrue(consent.bodyString.contains("Allow access?"))
            XCTAssertTrue(consent.bodyString.contains("til command-line tool"))
            XCTAssertTrue(consent.bodyString.contains(start.userCode), "the code being approved is named")
            let decision = try HTMLForm.only(in: consent)
            XCTAssertEqual(decision.action, "/device/consent")
            assertOAuthError(try await app.client.pollDevice(start.deviceCode), 400, "slow_down", "still too soon: the interval grew")
            let approved = try await browser.submit(decision, clicking: (name: "decision", value: "approve"))
            XCTAssertEqual(approved.status, .ok, approved.bodyString)
            XCTAssertTrue(approved.bodyString.contains("Device connected"))
            let status = try await app.deviceStatus(start.deviceCode)
            XCTAssertEqual(status, "approved")

            try await app.pollIntervalPassed(start.deviceCode)
            let tokens = try await app.client.pollDevice(start.deviceCode)
            XCTAssertEqual(tokens.status.code, 200, tokens.bodyString)
            XCTAssertEqual(tokens.headers["Cache-Control"], "no-store")
            let pair = try tokens.jsonObject()
            let access = try XCTUnwrap(pair["access_token"] as? String)
            let refresh = try XCTUnwrap(pair["refresh_token"] as? String, "til-cli holds the refresh_token grant")
            XCTAssertEqual(pair["scope"] as? String, "acronyms:write categories:write users:write account")
            let me = try await app.client.send(.get, "/api/users/me", auth: .bearer(access))
            XCTAssertEqual(try me.jsonObject()["username"] as? String, "admin")
            let session = try await app.til.db.query("""
                SELECT s.kind, s.client_id, d.status FROM oauth_device_codes d JOIN sessions s ON s.id = d.session_id
                """)
            XCTAssertEqual(try session.first?.decode(column: "kind", as: String.self), "oauth")
            XCTAssertEqual(try session.first?.decode(column: "client_id", as: String.self), "til-cli")
            XCTAssertEqual(try session.first?.decode(column: "status", as: String.self), "redeemed")

            // The approval is listed among the user's applications; withdrawing it ends the session.
            let account = try await app.client.session("admin", scope: "account").value
            let grants = try await app.client.send(.get, "/api/users/me/grants", auth: .bearer(account))
            XCTAssertTrue(grants.bodyString.contains(#""clientID":"til-cli""#), grants.bodyString)

            // Once only; the refresh token works at the token endpoint as til-cli.
            try await app.pollIntervalPassed(start.deviceCode)
            assertOAuthError(try await app.client.pollDevice(start.deviceCode), 400, "invalid_grant", "redeemed")
            let refreshed = try await app.client.postForm("/oauth/token", [
                ("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", "til-cli"),
            ])
            XCTAssertEqual(refreshed.status.code, 200, refreshed.bodyString)
            let renewed = try XCTUnwrap(try refreshed.jsonObject()["access_token"] as? String)
            let withdrawn = try await app.client.send(.delete, "/api/users/me/grants/til-cli", auth: .bearer(account))
            XCTAssertEqual(withdrawn.status.code, 204, withdrawn.bodyString)
            let ended = try await app.client.meStatus(renewed)
            XCTAssertEqual(ended, 401, "withdrawing til-cli ended the device's session")
        }
    }

    /// §3.5: every poll sooner than the interval is `slow_down`, and adds five seconds to it.
    func testSlowDownGrowsTheStoredIntervalForAsLongAsTheClientPollsTooFast() async throws {
        try await withTestApp { app in
            let start = try await app.client.startedDevice()
            let digest = SHA256.hex(of: start.deviceCode)
            func interval() async throws -> Int { try await app.number("SELECT interval_seconds AS n FROM oauth_device_codes WHERE digest = \(digest)") }
            assertOAuthError(try await app.client.pollDevice(start.deviceCode), 400, "authorization_pending")
            for expected in [10, 15, 20] {
                assertOAuthError(try await app.client.pollDevice(start.deviceCode), 400, "slow_down")
                let stored = try await interval()
                XCTAssertEqual(stored, expected)
            }
            // Six seconds after the last poll: past the first interval, not the grown one.
            try await app.til.db.execute("UPDATE oauth_device_codes SET last_polled_at = now() - interval '6 seconds' WHERE digest = \(digest)")
            assertOAuthError(try await app.client.pollDevice(start.deviceCode), 400, "slow_down", "the interval is 20 s now")
            try await app.pollIntervalPassed(start.deviceCode)
            assertOAuthError(try await app.client.pollDevice(start.deviceCode), 400, "authorization_pending", "after the grown interval")
        }
    }

    func testADeniedDeviceHearsAccessDeniedAndAnExpiredCodeExpiredToken() async throws {
        try await withTestApp { app in
            let denied = try await app.client.startedDevice()
            let browser = BrowserClient(app.client)
            try await browser.signIn("admin")
            let answer = try await browser.decideDevice(denied.userCode, approve: false)
            XCTAssertEqual(answer.status, .ok)
            XCTAssertTrue(answer.bodyString.contains("Device refused"))
            assertOAuthError(try await app.client.pollDevice(denied.deviceCode), 400, "access_denied")
            let oauthSessions = try await app.number("SELECT count(*) AS n FROM sessions WHERE kind = 'oauth'")
            XCTAssertEqual(oauthSessions, 0)

            let late = try await app.client.startedDevice()
            try await app.til.db.execute(
                "UPDATE oauth_device_codes SET expires_at = now() - interval '1 second' WHERE digest = \(SHA256.hex(of: late.deviceCode))")
            assertOAuthError(try await app.client.pollDevice(late.deviceCode), 400, "expired_token")
            let page = try await browser.enterUserCode(late.userCode)
            XCTAssertEqual(page.status, .badRequest)
            XCTAssertTrue(page.bodyString.contains("No device is waiting for that code"), page.bodyString)
        }
    }

    /// An approval's code expiring before the device polls is still `expired_token`.
    func testAnApprovalThatExpiresBeforeThePollIsExpiredToken() async throws {
        try await withTestApp { app in
            let start = try await app.client.startedDevice()
            let browser = BrowserClient(app.client)
            try await browser.signIn("admin")
            _ = try await browser.decideDevice(start.userCode, approve: true)
            try await app.til.db.execute(
                "UPDATE oauth_device_codes SET expires_at = now() - interval '1 second' WHERE digest = \(SHA256.hex(of: start.deviceCode))")
            assertOAuthError(try await app.client.pollDevice(start.deviceCode), 400, "expired_token")
        }
    }

    func testDeviceCodeTTLSetsExpiresIn() async throws {
        try await withTestApp(settings: ["DEVICE_CODE_TTL": "120"]) { app in
            let start = try await app.client.startedDevice()
            XCTAssertEqual(start.answer["expires_in"] as? Int, 120)
            let left = try await app.number("""
                SELECT extract(epoch FROM expires_at - created_at)::int AS n FROM oauth_device_codes
                """)
            XCTAssertEqual(left, 120)
        }
    }

    /// A confidential client registered for the device grant authenticates with its secret at
    /// both endpoints; registration accepts the grant, with refresh tokens.
    func testAConfidentialDeviceClientAuthenticatesWithItsSecret() async throws {
        try await withTestApp { app in
            let client = try await app.oauthClient([
                "grant_types": ["urn:ietf:params:oauth:grant-type:device_code", "refresh_token"], "redirect_uris": [String](),
                "scope": "acronyms:write",
            ])
            let secret = try XCTUnwrap(client.secret)
            assertOAuthError(try await app.client.startDevice(clientID: client.id), 401, "invalid_client", "no secret")
            assertOAuthError(
                try await app.client.startDevice(auth: .basic(client.id, "wrong")), 401, "invalid_client", "a wrong secret")
            let started = try await app.client.startDevice(auth: .basic(client.id, secret))
            XCTAssertEqual(started.status.code, 200, started.bodyString)
            let deviceCode = try XCTUnwrap(try started.jsonObject()["device_code"] as? String)
            let poll = try await app.client.postForm(
                "/oauth/token", [("grant_type", OAuthClient.GrantType.deviceCode.rawValue), ("device_code", deviceCode)],
                auth: .basic(client.id, secret))
            assertOAuthError(poll, 400, "authorization_pending")
            let consent = try await {
                let browser = BrowserClient(app.client)
                try await browser.signIn("admin")
                return try await browser.enterUserCode(try XCTUnwrap(try started.jsonObject()["user_code"] as? String))
            }()
            XCTAssertTrue(consent.bodyString.contains("Test app"), consent.bodyString)
        }
    }

    /// OpenID Connect Core §11 as the code flow applies it (`OAuthClient.refreshes`): a device
    /// client without the `refresh_token` grant gets a refresh token for `offline_access`, and
    /// may redeem it; without `offline_access` it gets none.
    func testOfflineAccessBuysADeviceClientARefreshTokenWithoutTheGrant() async throws {
        try await withTestApp { app in
            let client = try await app.oauthClient([
                "grant_types": ["urn:ietf:params:oauth:grant-type:device_code"], "redirect_uris": [String](),
                "token_endpoint_auth_method": "none", "scope": "acronyms:write offline_access",
            ])
            let browser = BrowserClient(app.client)
            try await browser.signIn("admin")
            for (scope, refreshes) in [("acronyms:write offline_access", true), ("acronyms:write", false)] {
                let started = try await app.client.startDevice(clientID: client.id, [("scope", scope)])
                XCTAssertEqual(started.status.code, 200, started.bodyString)
                let deviceCode = try XCTUnwrap(try started.jsonObject()["device_code"] as? String)
                let approved = try await browser.decideDevice(try XCTUnwrap(try started.jsonObject()["user_code"] as? String), approve: true)
                XCTAssertEqual(approved.status, .ok, approved.bodyString)
                try await app.pollIntervalPassed(deviceCode)
                let pair = try await app.client.pollDevice(deviceCode, clientID: client.id).jsonObject()
                let refresh = pair["refresh_token"] as? String
                XCTAssertEqual(refresh != nil, refreshes, "\(scope): \(pair)")
                guard let refresh else { continue }
                let refreshed = try await app.client.postForm("/oauth/token", [
                    ("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", client.id),
                ])
                XCTAssertEqual(refreshed.status.code, 200, "an offline_access refresh token is redeemable: \(refreshed.bodyString)")
            }
        }
    }

    /// `til-cli` as the migration seeds it, and the operator cannot remove it by mistake.
    func testTheBuiltInCLIClientIsSeededAndKept() async throws {
        try await withTestApp { app in
            let seeded = try await ClientRepository(db: app.til.db).find(id: "til-cli")
            let client = try XCTUnwrap(seeded)
            XCTAssertTrue(client.isPublic)
            XCTAssertTrue(client.trusted)
            XCTAssertEqual(client.grantTypes, [.deviceCode, .authorizationCode, .refreshToken])
            XCTAssertEqual(client.scope, Scope.known.map(\.rawValue), "every user scope")
            XCTAssertTrue(RedirectURIMatch.isRegistered("http://127.0.0.1:53177/callback", in: client.redirectURIs), "any loopback port")
            XCTAssertFalse(RedirectURIMatch.isRegistered("http://127.0.0.1:53177/other", in: client.redirectURIs))
            let environment = try TILServerRun.testEnvironment()
            let removal = try await TILServerRun.run(["clients", "remove", "til-cli"], environment: environment)
            XCTAssertNotEqual(removal.status, 0)
            XCTAssertTrue(removal.stderr.contains("built in"), removal.stderr)
            let kept = try await ClientRepository(db: app.til.db).find(id: "til-cli")
            XCTAssertNotNil(kept)
        }
    }
}
