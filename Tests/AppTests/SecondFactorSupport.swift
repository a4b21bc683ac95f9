import AppTesting
import Foundation
import Logging
import OneTimePasswords
import Web
import WebTesting
import XCTest
@testable import App

/// An account with TOTP on, as a test enrolled it through the API.
struct EnrolledUser {
    let user: User
    let secret: [UInt8]
    var recoveryCodes: [String]
    /// A session from before TOTP was on (scope `account`).
    let session: LoginAnswer

    /// The code of the step `offset` steps from `clock`'s.
    func code(at clock: TestClock, offset: Int = 0) -> String {
        TOTP(secret: secret).code(step: TOTP.step(at: clock.now) + Int64(offset))
    }
}

/// Runs `body` against a fresh app in process whose second factors read `clock`.
func withMFAApp(
    settings: [String: String] = [:], logger: Logger? = nil, _ body: (TestApp, TestClock) async throws -> Void
) async throws {
    let clock = TestClock()
    try await TestApp.run(.inProcess, settings: settings, logger: logger, clock: clock.clock) { app in try await body(app, clock) }
}

extension TestApp {
    /// A new user (password "password") with TOTP enrolled and confirmed through the API at
    /// `clock`'s time; the clock then moves one step on, so the confirming code is history.
    func enrolledUser(username: String? = nil, clock: TestClock) async throws -> EnrolledUser {
        let user = try await User.create(username: username, on: self)
        let session = try await client.session(user.username, scope: "account")
        let started = try await client.send(.post, "/api/users/me/mfa/totp", auth: .bearer(session.value))
        XCTAssertEqual(started.status.code, 201, started.bodyString)
        let secret = try XCTUnwrap(Base32.decode(try started.decode(TOTPEnrolment.self).secret))
        let code = TOTP(secret: secret).code(at: clock.now)
        let confirmed = try await client.send(.post, "/api/users/me/mfa/totp/confirm", json: ["code": code], auth: .bearer(session.value))
        XCTAssertEqual(confirmed.status.code, 200, confirmed.bodyString)
        clock.advance(steps: 1)
        return EnrolledUser(
            user: user, secret: secret, recoveryCodes: try confirmed.decode(RecoveryCodes.self).recoveryCodes, session: session)
    }

    /// The first step of a login for an account with TOTP on: asserts the 401 and its mfaToken.
    func mfaToken(
        _ username: String, password: String = "password", scope: String? = nil, file: StaticString = #filePath, line: UInt = #line
    ) async throws -> String {
        let response = try await client.login(username, password, scope: scope)
        XCTAssertEqual(response.status.code, 401, response.bodyString, file: file, line: line)
        return try response.decode(MFARequired.self).mfaToken
    }

    /// `POST /api/users/login/mfa` with `fields` (`mfaToken` and `code` or `recoveryCode`).
    func completeLogin(_ fields: [String: String]) async throws -> TestResponse {
        try await client.send(.post, "/api/users/login/mfa", json: fields)
    }
}
