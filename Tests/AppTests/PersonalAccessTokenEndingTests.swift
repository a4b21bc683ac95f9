import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// What ends personal access tokens besides their own revocation and expiry: a password reset,
/// an operator's new password and a second-factor reset do (the account may be in the wrong
/// hands); logout-all and the password change do not (they end logins, and a script's token
/// is not one).
final class PersonalAccessTokenEndingTests: XCTestCase {
    func testLogoutEverywhereEndsEveryLoginButKeepsTheTokens() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let login = try await app.client.session(user.username)
            let other = try await app.client.session(user.username)
            let pat = try await app.client.pat(bearer: login.value)
            let all = try await app.client.send(.post, "/api/users/logout-all", auth: .bearer(login.value))
            XCTAssertEqual(all.status.code, 204, all.bodyString)
            let logins = try await [app.client.meStatus(login.value), app.client.meStatus(other.value)]
            XCTAssertEqual(logins, [401, 401])
            let token = try await app.client.meStatus(pat.token)
            XCTAssertEqual(token, 200, "a personal access token outlives logout-all")
        }
    }

    func testAPasswordChangeKeepsTheTokens() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let login = try await app.client.session(user.username)
            let pat = try await app.client.pat(bearer: login.value)
            let change = try await app.client.send(
                .put, "/api/users/me/password", json: ["currentPassword": "password", "newPassword": "a-new-password"],
                auth: .bearer(login.value))
            XCTAssertEqual(change.status.code, 204, change.bodyString)
            let token = try await app.client.meStatus(pat.token)
            XCTAssertEqual(token, 200, "a personal access token outlives a password change")
        }
    }

    /// A password reset by mail (`POST /api/users/password-reset/confirm`), the operator's
    /// `users set-password` and `users mfa-reset` all end the tokens with every login.
    func testAResetAnOperatorsPasswordAndASecondFactorResetEndTheTokens() async throws {
        try await withTestApp { app in
            let (user, email) = try await app.userWithVerifiedEmail(username: "ending-\(UUID().uuidString.prefix(8))")
            let endings: [(String, () async throws -> Void)] = [
                ("a password reset", {
                    let token = try await app.resetToken(for: user.username, mailedTo: email)
                    let confirmed = try await app.confirmReset(["token": token, "newPassword": "reset-password-1"])
                    XCTAssertEqual(confirmed.status.code, 204, confirmed.bodyString)
                }),
                ("users set-password", { try await app.til.administration.setPassword("operator-password", of: user.username) }),
                ("users mfa-reset", { _ = try await app.til.administration.resetSecondFactors(of: user.username) }),
            ]
            var password = "password"
            for (ending, end) in endings {
                let login = try await app.client.session(user.username, password)
                let pat = try await app.client.pat(bearer: login.value)
                try await end()
                let token = try await app.client.send(.get, "/api/users/me", auth: .bearer(pat.token))
                assertInvalidToken(token, "after \(ending)")
                let left = try await app.number("""
                    SELECT count(*)::int AS n FROM sessions WHERE user_id = \(user.id) AND kind = 'pat' AND revoked_at IS NULL
                    """)
                XCTAssertEqual(left, 0, ending)
                password = ending == "a password reset" ? "reset-password-1" : "operator-password"
            }
        }
    }

    /// A token's creation racing an operator's new password for the same account: whichever
    /// commits first, no token made by the login the new password ended survives it.
    func testACreationRacingAnOperatorsNewPasswordLeavesNoLiveToken() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            for trial in 1...5 {
                let password = trial == 1 ? "password" : "operator-\(trial - 1)"
                let login = try await app.client.session(user.username, password)
                let client = app.client
                let administration = app.til.administration
                async let creation = client.createPAT("race \(trial)", bearer: login.value)
                async let reset: Int = administration.setPassword("operator-\(trial)", of: user.username)
                let (created, _) = try await (creation, reset)
                XCTAssertTrue([201, 401].contains(created.status.code), "trial \(trial): \(created.bodyString)")
                let live = try await app.number("""
                    SELECT count(*)::int AS n FROM sessions WHERE user_id = \(user.id) AND kind = 'pat' AND revoked_at IS NULL
                    """)
                XCTAssertEqual(live, 0, "trial \(trial): a token outlived the new password (\(created.status.code))")
            }
        }
    }

    /// The same with an operator's second-factor reset, which takes the account's token
    /// creation lock before it ends the sessions.
    func testACreationRacingASecondFactorResetLeavesNoLiveToken() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            for trial in 1...5 {
                let login = try await app.client.session(user.username)
                let client = app.client
                let administration = app.til.administration
                async let creation = client.createPAT("race \(trial)", bearer: login.value)
                async let reset = administration.resetSecondFactors(of: user.username)
                let (created, _) = try await (creation, reset)
                XCTAssertTrue([201, 401].contains(created.status.code), "trial \(trial): \(created.bodyString)")
                let live = try await app.number("""
                    SELECT count(*)::int AS n FROM sessions WHERE user_id = \(user.id) AND kind = 'pat' AND revoked_at IS NULL
                    """)
                XCTAssertEqual(live, 0, "trial \(trial): a token outlived the reset (\(created.status.code))")
            }
        }
    }
}