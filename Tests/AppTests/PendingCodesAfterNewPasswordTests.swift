import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// A new password ends the ways in that wait to be redeemed, as it ends the sessions: an
/// authorization code not yet exchanged and a device code approved but not yet polled were
/// approved by a sign-in with the old password, so neither may start a session after it —
/// whether the password was changed by its owner or reset through a link. An operator's
/// `users mfa-reset` ends them too: they were approved under the second factors it removes.
final class PendingCodesAfterNewPasswordTests: XCTestCase {
    func testAPasswordChangeEndsCodesWaitingToBeRedeemed() async throws {
        try await withTestApp { app in
            let user = try await User.create(username: "wedge", on: app)
            let waiting = try await Self.waitingCodes(of: user, "wedge", on: app)
            let session = try await app.client.session("wedge", scope: "account")
            let changed = try await app.client.send(
                .put, "/api/users/me/password", json: ["currentPassword": "password", "newPassword": "new-password-1"],
                auth: .bearer(session.value))
            XCTAssertEqual(changed.status.code, 204, changed.bodyString)
            try await waiting.assertEnded(on: app)
        }
    }

    func testAResetEndsCodesWaitingToBeRedeemed() async throws {
        try await withTestApp { app in
            let (user, email) = try await app.userWithVerifiedEmail(username: "biggs")
            let waiting = try await Self.waitingCodes(of: user, "biggs", on: app)
            let token = try await app.resetToken(for: "biggs", mailedTo: email)
            let reset = try await app.confirmReset(["token": token, "newPassword": "new-password-1"])
            XCTAssertEqual(reset.status.code, 204, reset.bodyString)
            try await waiting.assertEnded(on: app)
        }
    }

    func testAnOperatorsSecondFactorResetEndsCodesWaitingToBeRedeemed() async throws {
        let environment = try TILServerRun.testEnvironment()
        try await withTestApp { app in
            let user = try await User.create(username: "porkins", on: app)
            let waiting = try await Self.waitingCodes(of: user, "porkins", on: app)
            let reset = try await TILServerRun.run(["users", "mfa-reset", "porkins"], environment: environment)
            XCTAssertEqual(reset.status, 0, reset.stderr)
            try await waiting.assertEnded(on: app)
        }
    }

    /// An authorization code for `user` and a device code `username` approved in a browser.
    private static func waitingCodes(of user: User, _ username: String, on app: TestApp) async throws -> WaitingCodes {
        let client = try await app.oauthClient()
        let verifier = pkceVerifier()
        let code = try await app.insertAuthorizationCode(client: client, user: user.id, verifier: verifier)
        let browser = BrowserClient(app.client)
        try await browser.signIn(username)
        let device = try await app.client.startedDevice()
        let approved = try await browser.decideDevice(device.userCode, approve: true)
        XCTAssertEqual(approved.status, .ok, approved.bodyString)
        return WaitingCodes(client: client, code: code, verifier: verifier, deviceCode: device.deviceCode)
    }

    private struct WaitingCodes {
        let client: TestOAuthClient
        let code: String
        let verifier: String
        let deviceCode: String

        func assertEnded(on app: TestApp, file: StaticString = #filePath, line: UInt = #line) async throws {
            let redeemed = try await AuthorizationCodeGrantTests.redeem(app.client, client, code: code, verifier: verifier)
            assertOAuthError(redeemed, 400, "invalid_grant", "a code from before the new password", file: file, line: line)
            let polled = try await app.client.pollDevice(deviceCode)
            assertOAuthError(polled, 400, "access_denied", "a device approved before the new password", file: file, line: line)
        }
    }
}
