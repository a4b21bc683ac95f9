import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Two requests at once on the same secret, at each OAuth endpoint that keeps one (issue 18):
/// a client secret and its failure count, the open-registration count, a refresh token revoked
/// while it is redeemed, and a grant withdrawn twice.
final class OAuthEndpointRaceTests: XCTestCase {
    /// `count` copies of `request`, all in flight together; their statuses.
    private func together(_ count: Int, _ request: @escaping @Sendable () async throws -> TestResponse) async throws -> [TestResponse] {
        try await withThrowingTaskGroup(of: TestResponse.self) { group in
            for _ in 0..<count { group.addTask { try await request() } }
            return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
        }
    }

    /// One secret used eight times at once buys eight sessions of its own; twelve wrong
    /// secrets at once are all refused and all counted, so the next is throttled, while the
    /// right secret still is not.
    func testConcurrentClientCredentialsOnOneSecretAndConcurrentWrongSecrets() async throws {
        try await withTestApp(settings: ["LOGIN_MAX_FAILURES": "3"]) { app in
            let client = try await app.oauthClient()
            let secret = try XCTUnwrap(client.secret)
            let (http, basic, wrong) = (app.client, client.basic, TestAuth.basic(client.id, secret + "x"))
            let grant = [("grant_type", "client_credentials")]
            let rights = try await together(8) { try await http.postForm("/oauth/token", grant, auth: basic) }
            XCTAssertEqual(rights.map(\.status.code), Array(repeating: 200, count: 8), rights.map(\.bodyString).joined(separator: "\n"))
            let tokens = try rights.map { try XCTUnwrap(try $0.jsonObject()["access_token"] as? String) }
            XCTAssertEqual(Set(tokens).count, 8)
            let sessions = try await app.til.db.query("SELECT count(*)::int AS n FROM sessions WHERE client_id = \(client.id)")
            XCTAssertEqual(try sessions.first?.decode(column: "n", as: Int.self), 8)

            let refusals = try await together(12) { try await http.postForm("/oauth/token", grant, auth: wrong) }
            for refusal in refusals {
                XCTAssertTrue([401, 429].contains(refusal.status.code), refusal.bodyString)
                assertOAuthError(refusal, refusal.status.code, refusal.status.code == 401 ? "invalid_client" : "temporarily_unavailable")
            }
            let counted = try await app.til.db.query(
                "SELECT count(*)::int AS n FROM login_failures WHERE username = \("client:" + client.id)")
            XCTAssertEqual(try counted.first?.decode(column: "n", as: Int.self), 12, "every failure counted, none lost")
            assertOAuthError(try await http.postForm("/oauth/token", grant, auth: wrong), 429, "temporarily_unavailable")
            let right = try await http.postForm("/oauth/token", grant, auth: basic)
            XCTAssertEqual(right.status.code, 200, right.bodyString)
        }
    }

    /// Fifteen open registrations from one address at once: exactly the hourly limit land.
    func testConcurrentOpenRegistrationsStopAtTheLimit() async throws {
        try await withTestApp(settings: ["OAUTH_REGISTRATION": "open"]) { app in
            let http = app.client
            let responses = try await together(15) {
                try await http.register(["redirect_uris": ["http://127.0.0.1/callback"], "client_name": "Agent"], token: nil)
            }
            let limit = RegistrationController.openLimitPerHour
            XCTAssertEqual(responses.filter { $0.status.code == 201 }.count, limit, "\(responses.map(\.status.code))")
            for refused in responses where refused.status.code != 201 {
                assertOAuthError(refused, 429, "temporarily_unavailable")
            }
            let stored = try await app.til.db.query("SELECT count(*)::int AS n FROM oauth_clients WHERE id <> 'til-cli'")
            XCTAssertEqual(try stored.first?.decode(column: "n", as: Int.self), limit)
        }
    }

    /// A refresh token revoked while it is redeemed: whichever wins, no token of the grant
    /// outlives the revocation.
    func testARefreshTokenRevokedWhileItIsRedeemedLeavesNoLiveToken() async throws {
        try await withTestApp { app in
            let client = try await app.oauthClient()
            let verifier = pkceVerifier()
            let code = try await app.insertAuthorizationCode(client: client, user: try await app.adminID(), verifier: verifier)
            let tokens = try await AuthorizationCodeGrantTests.redeem(app.client, client, code: code, verifier: verifier).jsonObject()
            let (access, refresh) = (try XCTUnwrap(tokens["access_token"] as? String), try XCTUnwrap(tokens["refresh_token"] as? String))
            let (http, basic) = (app.client, client.basic)
            async let revoked = http.postForm("/oauth/revoke", [("token", refresh)], auth: basic)
            async let refreshed = http.postForm("/oauth/token", [("grant_type", "refresh_token"), ("refresh_token", refresh)], auth: basic)
            let (revocation, rotation) = try await (revoked, refreshed)
            XCTAssertEqual(revocation.status.code, 200, revocation.bodyString)
            let afterwards = try await app.client.meStatus(access)
            XCTAssertEqual(afterwards, 401, "the grant ended")
            if rotation.status.code == 200 {
                let rotated = try rotation.jsonObject()
                let newAccess = try await app.client.meStatus(try XCTUnwrap(rotated["access_token"] as? String))
                XCTAssertEqual(newAccess, 401, "issued in a session the revocation ended")
                let newRefresh = try XCTUnwrap(rotated["refresh_token"] as? String)
                assertOAuthError(
                    try await http.postForm("/oauth/token", [("grant_type", "refresh_token"), ("refresh_token", newRefresh)], auth: basic),
                    400, "invalid_grant")
            } else {
                assertOAuthError(rotation, 400, "invalid_grant", "revoked first")
            }
        }
    }

    /// Two withdrawals of one grant at once: one 204, one 404, and the client's token ended.
    func testAGrantWithdrawnTwiceAtOnceIsWithdrawnOnce() async throws {
        try await withTestApp { app in
            let client = try await app.oauthClient()
            let access = try await app.grantedAccessToken(for: client)
            let account = try await app.client.session("admin", scope: "account").value
            let http = app.client
            let statuses = try await together(2) {
                try await http.send(.delete, "/api/users/me/grants/\(client.id)", auth: .bearer(account))
            }.map(\.status.code)
            XCTAssertEqual(statuses.sorted(), [204, 404])
            let ended = try await app.client.meStatus(access)
            XCTAssertEqual(ended, 401)
        }
    }

    /// `til-server clients remove` twice at once: one removes the client, the other finds none.
    func testTwoRemovalsOfOneClientAtOnceRemoveItOnce() async throws {
        let environment = try TILServerRun.testEnvironment()
        try await withTestApp { app in
            let client = try await app.oauthClient()
            async let first = TILServerRun.run(["clients", "remove", client.id], environment: environment)
            async let second = TILServerRun.run(["clients", "remove", client.id], environment: environment)
            let runs = try await [first, second]
            XCTAssertEqual(runs.map(\.status).sorted(), [0, 1], runs.map(\.stderr).joined(separator: "\n"))
            runs.first { $0.status == 1 }?.assertFailure(1, mentioning: ["no client with id"])
        }
    }

    /// `til-server users admin --revoke` twice at once: the session holding `clients:write`
    /// ends once, and the two commands count it once between them.
    func testTwoRevocationsOfTheAdminRoleAtOnceEndItsSessionOnce() async throws {
        try await withCommandTestApp { app, environment, _ in
            let granted = try await TILServerRun.run(["users", "admin", "timc", "--grant"], environment: environment)
            XCTAssertEqual(granted.status, 0, granted.stderr)
            let powerful = try await app.client.session("timc", scope: "clients:write")
            async let first = TILServerRun.run(["users", "admin", "timc", "--revoke"], environment: environment)
            async let second = TILServerRun.run(["users", "admin", "timc", "--revoke"], environment: environment)
            let runs = try await [first, second]
            XCTAssertEqual(runs.map(\.status), [0, 0], runs.map(\.stderr).joined(separator: "\n"))
            XCTAssertEqual(
                runs.map(\.stdout).sorted(),
                ["timc is no longer an administrator; 0 sessions ended.\n", "timc is no longer an administrator; 1 session ended.\n"])
            let ended = try await app.client.meStatus(powerful.value)
            XCTAssertEqual(ended, 401)
        }
    }
}
