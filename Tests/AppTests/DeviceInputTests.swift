import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Every bad parameter of the device flow gets a clear answer: RFC 6749 §5.2 errors at the two
/// endpoints, pages on the verification side; never a 500, and nothing stored or spent.
final class DeviceInputTests: XCTestCase {
    func testTheDeviceAuthorizationEndpointRefusesEveryBadParameter() async throws {
        try await withTestApp { app in
            let json = try await app.client.send(.post, "/oauth/device_authorization", json: ["client_id": "til-cli"])
            assertOAuthError(json, 400, "invalid_request", "JSON")
            assertOAuthError(try await app.client.postForm("/oauth/device_authorization", [("client_id", "til-cli"), ("client_id", "til-cli")]),
                             400, "invalid_request", "client_id twice")
            assertOAuthError(try await app.client.postForm("/oauth/device_authorization", [("client_id", "til-cli"), ("scope", "account\0")]),
                             400, "invalid_request", "NUL")
            assertOAuthError(try await app.client.postForm("/oauth/device_authorization", []), 401, "invalid_client", "no client")
            assertOAuthError(try await app.client.startDevice(clientID: "nobody"), 401, "invalid_client", "unknown client")
            assertOAuthError(try await app.client.startDevice(clientID: String(repeating: "x", count: 300)), 401, "invalid_client", "overlong")
            let codeOnly = try await StoredClient.create(on: app)
            assertOAuthError(try await app.client.startDevice(clientID: codeOnly.id), 400, "unauthorized_client", "no device grant")
            for (scope, why) in [("", "empty"), ("   ", "spaces"), ("nothing:known", "unknown"), ("clients:write", "not registered"),
                                 ("account" + String(repeating: " account", count: 400), "too long"), ("acronyms:write\u{0}", "NUL")] {
                let response = try await app.client.startDevice([("scope", scope)])
                XCTAssertEqual(response.status.code, 400, "\(why): \(response.bodyString)")
                XCTAssertTrue(["invalid_scope", "invalid_request"].contains(try response.jsonObject()["error"] as? String ?? ""), why)
            }
            let narrowed = try await app.client.startDevice([("scope", "acronyms:write")])
            XCTAssertEqual(narrowed.status.code, 200, narrowed.bodyString)
            let stored = try await app.number("SELECT count(*) AS n FROM oauth_device_codes")
            XCTAssertEqual(stored, 1, "only the good request stored a code")
            let get = try await app.client.send(.get, "/oauth/device_authorization")
            XCTAssertTrue([404, 405].contains(get.status.code), "\(get.status.code)")
        }
    }

    /// Unknown, overlong, another client's, used and missing device codes; a client without the
    /// grant; none of them changes the code's row.
    func testTheTokenEndpointRefusesBadDeviceCodes() async throws {
        try await withTestApp { app in
            let start = try await app.client.startedDevice()
            let grant = OAuthClient.GrantType.deviceCode.rawValue
            assertOAuthError(try await app.client.postForm("/oauth/token", [("grant_type", grant), ("client_id", "til-cli")]),
                             400, "invalid_request", "no device_code")
            assertOAuthError(try await app.client.postForm("/oauth/token", [("grant_type", grant), ("client_id", "til-cli"), ("device_code", "")]),
                             400, "invalid_request", "empty device_code")
            for code in ["nope", String(repeating: "A", count: 43), String(repeating: "A", count: 5000), start.userCode, "é\u{301}"] {
                assertOAuthError(try await app.client.pollDevice(code), 400, "invalid_grant", "unknown \(code.prefix(20))")
            }
            let other = try await app.oauthClient(["grant_types": [grant], "redirect_uris": [String](), "token_endpoint_auth_method": "none"])
            assertOAuthError(try await app.client.pollDevice(start.deviceCode, clientID: other.id), 400, "invalid_grant", "another client's code")
            let codeOnly = try await StoredClient.create(on: app)
            assertOAuthError(try await app.client.pollDevice(start.deviceCode, clientID: codeOnly.id), 400, "unauthorized_client", "no device grant")
            assertOAuthError(try await app.client.pollDevice(start.deviceCode, clientID: "nobody"), 401, "invalid_client")
            let untouched = try await app.til.db.query(
                "SELECT last_polled_at IS NULL AS never FROM oauth_device_codes WHERE digest = \(SHA256.hex(of: start.deviceCode))")
            XCTAssertEqual(try untouched.first?.decode(column: "never", as: Bool.self), true, "no refused poll counted as one")
            assertOAuthError(try await app.client.pollDevice(start.deviceCode), 400, "authorization_pending", "still pending for its own client")
        }
    }

    /// Malformed user codes in many shapes: the form again with an error (400), none counted
    /// against the throttle (they can match nothing) and none reaching the consent page.
    func testTheVerificationPageRefusesMalformedUserCodes() async throws {
        try await withTestApp(settings: ["LOGIN_MAX_FAILURES": "2"]) { app in
            _ = try await app.client.startedDevice()
            let browser = BrowserClient(app.client)
            try await browser.signIn("admin")
            let shapes = ["", "BCDF", "BCDF-GHJ", "BCDF-GHJKL", "AEIO-UBCD", "1234-5678", "BCDF_GHJK", "BCDF.GHJK", "<script>x</script>",
                          "B C D F G H J K L", "' OR 1=1 --", "%42CDF-GHJK"]
            for typed in shapes {
                let page = try await browser.enterUserCode(typed)
                XCTAssertEqual(page.status, .badRequest, "\(typed): \(page.bodyString)")
                XCTAssertTrue(page.bodyString.contains("role=\"alert\""), typed)
                XCTAssertFalse(page.bodyString.contains("<script>x"), "escaped")
                XCTAssertEqual(try HTMLForm.only(in: page).action, "/device")
            }
            let overlong = try await browser.enterUserCode(String(repeating: "B", count: 65))
            XCTAssertEqual(overlong.status, .badRequest)
            let failures = try await app.number("SELECT count(*) AS n FROM login_failures")
            XCTAssertEqual(failures, 0)
        }
    }

    /// The forms' other fields: no CSRF token (403), no session (the sign-in form), a decision
    /// that is neither, a missing or spent code; the query's overlong code is not shown.
    func testTheVerificationFormsRefuseForgedOrBrokenPosts() async throws {
        try await withTestApp { app in
            let start = try await app.client.startedDevice()
            let stranger = BrowserClient(app.client)
            let signedOut = try await stranger.post("/device", [("user_code", start.userCode)])
            XCTAssertEqual(signedOut.status, .forbidden, "no CSRF token, no session")
            let browser = BrowserClient(app.client)
            try await browser.signIn("admin")
            let noToken = try await browser.post("/device", [("user_code", start.userCode)])
            XCTAssertEqual(noToken.status, .forbidden)
            let forged = try await browser.post("/device/consent", [("user_code", start.userCode), ("decision", "approve"), ("csrf_token", String(repeating: "0", count: 64))])
            XCTAssertEqual(forged.status, .forbidden)
            let consent = try await browser.enterUserCode(start.userCode)
            let form = try HTMLForm.only(in: consent)
            let maybe = try await browser.submit(form, clicking: (name: "decision", value: "maybe"))
            XCTAssertEqual(maybe.status, .badRequest)
            let noCode = try await browser.submit(form, ["user_code": ""], clicking: (name: "decision", value: "approve"))
            XCTAssertEqual(noCode.status, .badRequest)
            let twice = try await browser.post("/device", [("csrf_token", form.value("csrf_token")!), ("user_code", "A"), ("user_code", "B")])
            XCTAssertEqual(twice.status, .badRequest)
            let status = try await app.deviceStatus(start.deviceCode)
            XCTAssertEqual(status, "pending", "nothing above decided")
            let approved = try await browser.submit(form, clicking: (name: "decision", value: "approve"))
            XCTAssertEqual(approved.status, .ok)
            let again = try await browser.submit(form, clicking: (name: "decision", value: "deny"))
            XCTAssertEqual(again.status, .badRequest, "decided once")
            XCTAssertTrue(again.bodyString.contains("approved, denied or expired"))
            let shown = try await browser.get("/device?user_code=" + String(repeating: "B", count: 65))
            XCTAssertEqual(shown.status, .badRequest)
            let junk = try await browser.get("/device?user_code=%3Cb%3E")
            XCTAssertEqual(try HTMLForm.only(in: junk).value("user_code"), "", "no code, nothing prefilled")
        }
    }

    /// A device asking for `clients:write` is approved only by an administrator.
    func testOnlyAnAdministratorApprovesClientsWrite() async throws {
        try await withTestApp { app in
            let client = try await app.oauthClient([
                "grant_types": [OAuthClient.GrantType.deviceCode.rawValue], "redirect_uris": [String](), "token_endpoint_auth_method": "none",
            ])
            try await app.til.db.execute("UPDATE oauth_clients SET scope = 'acronyms:write clients:write', trusted = true WHERE id = \(client.id)")
            let start = try await app.client.startedDevice(clientID: client.id)
            _ = try await User.create(username: "padme", on: app)
            let browser = BrowserClient(app.client)
            try await browser.signIn("padme")
            let refused = try await browser.decideDevice(start.userCode, approve: true)
            XCTAssertEqual(refused.status, .forbidden, refused.bodyString)
            let status = try await app.deviceStatus(start.deviceCode)
            XCTAssertEqual(status, "pending")
        }
    }
}
