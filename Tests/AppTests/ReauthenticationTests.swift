import AppTesting
import Foundation
import OneTimePasswords
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// `POST /api/users/me/reauth`: the answer to the step-up challenge. The password (and with TOTP
/// on a code, a recovery code or a passkey), or a passkey alone, renews the session's
/// authentication time and `amr`; wrong ones are 403s the login throttle counts; only Basic
/// logins and `til-cli` may call it.
final class ReauthenticationTests: XCTestCase {
    func testThePasswordRenewsTheSessionAndTheRefusedChangeThenGoesThrough() async throws {
        let capture = LogCapture()
        try await withTestApp(logger: capture.logger()) { app in
            _ = try await User.create(username: "padme", on: app)
            let session = try await app.client.session("padme", scope: "account")
            try await app.ageAuthentication(of: session.id)
            assertStepUp(try await app.client.send(.post, "/api/users/me/mfa/totp", auth: .bearer(session.value)))

            let renewed = try await app.reauth(session.value, ["password": "password"])
            XCTAssertEqual(renewed.status.code, 204, renewed.bodyString)
            let (ago, amr) = try await app.authentication(of: session.id)
            XCTAssertLessThan(try XCTUnwrap(ago), 5)
            XCTAssertEqual(amr, ["pwd"])
            let retried = try await app.client.send(.post, "/api/users/me/mfa/totp", auth: .bearer(session.value))
            XCTAssertEqual(retried.status.code, 201, retried.bodyString)
            let events = capture.lines.compactMap { $0.metadata["event"] }
            XCTAssertEqual(events.filter { $0.hasPrefix("reauth.") }, ["reauth.required", "reauth.succeeded"])
            XCTAssertFalse(capture.lines.contains { $0.fullText.contains(session.value) || $0.fullText.contains("password\"") })
        }
    }

    func testAWrongPasswordIs403CountedByTheLoginThrottleAndRenewsNothing() async throws {
        let capture = LogCapture()
        try await withTestApp(settings: ["LOGIN_MAX_FAILURES": "3"], logger: capture.logger()) { app in
            _ = try await User.create(username: "anakin", on: app)
            let session = try await app.client.session("anakin", scope: "account")
            try await app.ageAuthentication(of: session.id)
            var statuses: [Int] = []
            for _ in 0..<4 { statuses.append(try await app.reauth(session.value, ["password": "not-it"]).status.code) }
            XCTAssertEqual(statuses, [403, 403, 403, 429])
            let throttled = try await app.reauth(session.value, ["password": "password"])
            XCTAssertEqual(throttled.status.code, 429, "the right password waits too: \(throttled.bodyString)")
            XCTAssertNotNil(throttled.headers["Retry-After"])
            let login = try await app.client.login("anakin")
            XCTAssertEqual(login.status.code, 429, "the same counters as a login's")
            let ago = try await app.authentication(of: session.id).secondsAgo
            XCTAssertEqual(try XCTUnwrap(ago), 660, accuracy: 5)
            let events = capture.lines.compactMap { $0.metadata["event"] }
            XCTAssertEqual(events.filter { $0 == "reauth.failed" }.count, 3)
            XCTAssertEqual(events.filter { $0 == "reauth.throttled" }.count, 2)
        }
    }

    func testWithTOTPOnThePasswordNeedsASecondFactor() async throws {
        try await withMFAApp(settings: ["LOGIN_MAX_FAILURES": "20"]) { app, clock in
            let enrolled = try await app.enrolledUser(username: "obiwan", clock: clock)
            let token = enrolled.session.value
            try await app.ageAuthentication(of: enrolled.session.id)

            let alone = try await app.reauth(token, ["password": "password"])
            XCTAssertEqual(alone.status.code, 403, alone.bodyString)
            let needed = try alone.decode(ReauthenticationFactorRequired.self)
            XCTAssertTrue(needed.mfaRequired)
            XCTAssertEqual(needed.methods, ["totp", "recovery_code"])
            let wrongPassword = try await app.reauth(token, ["password": "nope", "code": enrolled.code(at: clock)])
            assertRefused(wrongPassword, 403, mentioning: "password is wrong")
            let wrongCode = try await app.reauth(token, ["password": "password", "code": enrolled.code(at: clock, offset: 3)])
            assertRefused(wrongCode, 403, mentioning: SecondFactors.wrongCode)
            let stale = try await app.authentication(of: enrolled.session.id).secondsAgo
            XCTAssertEqual(try XCTUnwrap(stale), 660, accuracy: 5, "nothing renewed yet")

            let coded = try await app.reauth(token, ["password": "password", "code": enrolled.code(at: clock)])
            XCTAssertEqual(coded.status.code, 204, "the code the wrong password came with was never spent: \(coded.bodyString)")
            let afterCode = try await app.authentication(of: enrolled.session.id).amr
            XCTAssertEqual(afterCode, ["pwd", "otp", "mfa"])

            try await app.ageAuthentication(of: enrolled.session.id)
            let recovered = try await app.reauth(token, ["password": "password", "recoveryCode": enrolled.recoveryCodes[0].lowercased()])
            XCTAssertEqual(recovered.status.code, 204, recovered.bodyString)
            let afterRecovery = try await app.authentication(of: enrolled.session.id).amr
            XCTAssertEqual(afterRecovery, ["pwd", "mfa"])
            let spent = try await app.reauth(token, ["password": "password", "recoveryCode": enrolled.recoveryCodes[0]])
            assertRefused(spent, 403, mentioning: SecondFactors.wrongCode)
        }
    }

    func testAPasskeyAloneReauthenticatesAndAnotherAccountsIsRefused() async throws {
        try await withTestApp { app in
            let (token, authenticator) = try await PasskeyCeremony.holder("ahsoka", on: app)
            let (_, stranger) = try await PasskeyCeremony.holder("ventress", on: app)
            let ceremony = PasskeyCeremony(client: app.client)
            let sessionID = try await Self.sessionID(of: token, on: app)
            try await app.ageAuthentication(of: sessionID)

            var foreign = stranger
            let refused = try await Self.reauth(token, passkey: try await ceremony.assertion(&foreign), on: app)
            assertRefused(refused, 403, mentioning: "another account's")
            var own = authenticator
            let accepted = try await Self.reauth(token, passkey: try await ceremony.assertion(&own), on: app)
            XCTAssertEqual(accepted.status.code, 204, accepted.bodyString)
            let (ago, amr) = try await app.authentication(of: sessionID)
            XCTAssertLessThan(try XCTUnwrap(ago), 5)
            XCTAssertEqual(amr, ["hwk", "user"])
        }
    }

    /// A third-party client must never collect the password: it steps up through the
    /// authorization endpoint. `til-cli`, TIL's own, may.
    func testOnlyBasicLoginsAndTheCommandLineToolMayReauthenticate() async throws {
        try await withTestApp { app in
            let user = try await User.create(username: "yoda", on: app)
            let firstParty = try await StoredClient.create(
                redirectURIs: ["https://app.example/cb"], scope: ["acronyms:write", "account"], trusted: true, on: app)
            let registered = TestOAuthClient(id: firstParty.id, secret: nil)
            let verifier = pkceVerifier()
            let code = try await app.insertAuthorizationCode(client: registered, user: user.id, verifier: verifier, scopes: "account")
            let redeemed = try await AuthorizationCodeGrantTests.redeem(app.client, registered, code: code, verifier: verifier).jsonObject()
            let appToken = try XCTUnwrap(redeemed["access_token"] as? String, "\(redeemed)")
            let refused = try await app.reauth(appToken, ["password": "password"])
            assertRefused(refused, 403, mentioning: "max_age")

            let browser = BrowserClient(app.client)
            try await browser.signIn("yoda")
            let device = try await app.client.startedDevice()
            _ = try await browser.decideDevice(device.userCode, approve: true)
            let polled = try await app.client.pollDevice(device.deviceCode)
            let cliToken = try XCTUnwrap(try polled.jsonObject()["access_token"] as? String, polled.bodyString)
            let cli = try await app.reauth(cliToken, ["password": "password"])
            XCTAssertEqual(cli.status.code, 204, cli.bodyString)

            let narrow = try await app.client.session("yoda", scope: "acronyms:write")
            let lacking = try await app.reauth(narrow.value, ["password": "password"])
            XCTAssertEqual(lacking.status.code, 403, "it needs the account scope")
            assertInvalidToken(try await app.reauth("not-a-token", ["password": "password"]))
        }
    }

    func testBadBodiesAreClear400sAndCountNothing() async throws {
        try await withTestApp(settings: ["LOGIN_MAX_FAILURES": "3"]) { app in
            _ = try await User.create(username: "mace", on: app)
            let session = try await app.client.session("mace", scope: "account")
            let cases: [(String, String)] = [
                ("{}", "Give 'password'"),
                (#"{"code": "123456"}"#, "Give 'password'"),
                (#"{"password": ""}"#, "'password' must not be empty"),
                (#"{"password": "\#(String(repeating: "p", count: 1025))"}"#, "'password' must be at most 1024 bytes"),
                (#"{"password": 12345678}"#, "password"),
                (#"{"password": "password", "code": "12345"}"#, "'code' must be the 6 digits"),
                (#"{"password": "password", "code": "123456", "recoveryCode": "ABCD"}"#, "not both"),
                (#"{"password": "password", "code": "123456", "passkey": {}}"#, "passkey"),
                (#"{"password": "pass\u0000word"}"#, "NUL"),
                (#"{"passkey": "not an object"}"#, "passkey"),
                (#"["password"]"#, ""),
                ("password=password", ""),
            ]
            for (body, reason) in cases {
                let response = try await app.client.send(
                    .post, "/api/users/me/reauth", headers: ["Content-Type": "application/json"], body: Array(body.utf8),
                    auth: .bearer(session.value))
                XCTAssertEqual(response.status.code, 400, "\(body.prefix(60)): \(response.bodyString)")
                let answer = try response.decode(ErrorBody.self)
                XCTAssertTrue(reason.isEmpty || answer.reason.contains(reason), "\(body.prefix(60)): \(answer.reason)")
            }
            let form = try await app.client.send(
                .post, "/api/users/me/reauth", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Array("password=password".utf8), auth: .bearer(session.value))
            XCTAssertEqual(form.status.code, 415, form.bodyString)
            let still = try await app.reauth(session.value, ["password": "password"])
            XCTAssertEqual(still.status.code, 204, "no bad body counted as a failure: \(still.bodyString)")
        }
    }

    static func sessionID(of token: String, on app: TestApp) async throws -> UUID {
        let list = try await app.client.send(.get, "/api/users/me/sessions", auth: .bearer(token))
        return try XCTUnwrap(try list.decode([SessionInfo].self).first { $0.current }?.id, list.bodyString)
    }

    /// `POST /api/users/me/reauth {"passkey": assertion}`.
    static func reauth(_ token: String, passkey assertion: Data, on app: TestApp) async throws -> TestResponse {
        let body = Data(#"{"passkey":"#.utf8) + assertion + Data("}".utf8)
        return try await app.client.send(
            .post, "/api/users/me/reauth", headers: ["Content-Type": "application/json"], body: Array(body), auth: .bearer(token))
    }
}
