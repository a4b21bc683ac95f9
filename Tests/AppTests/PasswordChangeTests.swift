import App
import AppTesting
import Foundation
import Web
import WebTesting
import XCTest

/// `PUT /api/users/me/password`.
final class PasswordChangeTests: XCTestCase {
    struct Change: Encodable {
        var currentPassword: String
        var newPassword: String
    }

    func testWrongCurrentPasswordIs403() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let login = try await app.client.session(user.username)
            let response = try await app.client.send(
                .put, "/api/users/me/password",
                json: Change(currentPassword: "wrong-one", newPassword: "brand-new-pw"), auth: .bearer(login.value))
            XCTAssertEqual(response.status.code, 403, response.bodyString)
            let old = try await app.client.login(user.username)
            XCTAssertEqual(old.status.code, 200, "the password did not change")
        }
    }

    /// The change checks the current password as a login does (`PasswordVerifier`): wrong
    /// guesses count toward the same throttle, and a throttled change is a 429 that checks nothing.
    func testWrongCurrentPasswordsShareTheLoginThrottle() async throws {
        try await withTestApp(settings: ["LOGIN_MAX_FAILURES": "3", "LOGIN_WINDOW": "60"]) { app in
            let user = try await User.create(on: app)
            let login = try await app.client.session(user.username)
            _ = try await app.client.login(user.username, "wrong-password")
            for attempt in 2...3 {
                let wrong = try await app.client.send(
                    .put, "/api/users/me/password",
                    json: Change(currentPassword: "wrong-\(attempt)", newPassword: "brand-new-pw"), auth: .bearer(login.value))
                XCTAssertEqual(wrong.status.code, 403, "failure \(attempt): \(wrong.bodyString)")
            }
            let right = try await app.client.send(
                .put, "/api/users/me/password",
                json: Change(currentPassword: "password", newPassword: "brand-new-pw"), auth: .bearer(login.value))
            assertThrottled(right, window: 60)
            assertThrottled(try await app.client.login(user.username, "password"), window: 60)
        }
    }

    func testNewPasswordOutside8To72BytesIs400() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let login = try await app.client.session(user.username)
            for newPassword in ["", "seven77", String(repeating: "p", count: 73)] {
                let response = try await app.client.send(
                    .put, "/api/users/me/password",
                    json: Change(currentPassword: "password", newPassword: newPassword), auth: .bearer(login.value))
                XCTAssertEqual(response.status.code, 400, "\(newPassword.count) bytes: \(response.bodyString)")
            }
            let missing = try await app.client.send(
                .put, "/api/users/me/password", json: ["currentPassword": "password"], auth: .bearer(login.value))
            XCTAssertEqual(missing.status.code, 400, missing.bodyString)
            let old = try await app.client.login(user.username)
            XCTAssertEqual(old.status.code, 200, "the password did not change")
        }
    }

    func testChangeEndsOtherSessionsKeepsTheCallerAndSwapsThePassword() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let caller = try await app.client.session(user.username)
            let other = try await app.client.session(user.username)
            let bystander = try await app.client.session("admin")
            let longest = String(repeating: "n", count: 72)
            let response = try await app.client.send(
                .put, "/api/users/me/password",
                json: Change(currentPassword: "password", newPassword: longest), auth: .bearer(caller.value))
            XCTAssertEqual(response.status.code, 204, response.bodyString)

            let otherAccess = try await app.client.meStatus(other.value)
            XCTAssertEqual(otherAccess, 401, "other session's access token")
            let otherRefresh = try await app.client.refreshStatus(other.refreshToken)
            XCTAssertEqual(otherRefresh, 401, "other session's refresh token")
            let callerAccess = try await app.client.meStatus(caller.value)
            XCTAssertEqual(callerAccess, 200, "the calling session stays valid")
            let bystanderAccess = try await app.client.meStatus(bystander.value)
            XCTAssertEqual(bystanderAccess, 200, "another user's session is untouched")
            let callerRefresh = try await app.client.refreshStatus(caller.refreshToken)
            XCTAssertEqual(callerRefresh, 200, "the calling session can still refresh")

            let newLogin = try await app.client.login(user.username, longest)
            XCTAssertEqual(newLogin.status.code, 200, newLogin.bodyString)
            let oldLogin = try await app.client.login(user.username, "password")
            XCTAssertEqual(oldLogin.status.code, 401, oldLogin.bodyString)
        }
    }
}
