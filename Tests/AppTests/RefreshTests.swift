import App
import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest

/// `POST /api/users/refresh`: rotation, reuse detection, the grace window and concurrency.
final class RefreshTests: XCTestCase {
    func testRefreshGivesANewWorkingPairOfTheSameSession() async throws {
        try await withTestApp(settings: ["TOKEN_TTL": "600"]) { app in
            let user = try await User.create(on: app)
            let login = try await app.client.session(user.username, scope: "acronyms:write account")
            let before = Date()
            let response = try await app.client.refresh(login.refreshToken)
            XCTAssertEqual(response.status.code, 200, response.bodyString)
            XCTAssertEqual(response.headers["Cache-Control"], "no-store")
            let pair = try response.decode(LoginAnswer.self)
            XCTAssertEqual(pair.id, login.id)
            XCTAssertEqual(pair.user.id, user.id)
            XCTAssertEqual(Set(pair.scopes), ["acronyms:write", "account"])
            XCTAssertEqual(pair.tokenType, "Bearer")
            XCTAssertEqual(pair.value.count, 43)
            XCTAssertEqual(pair.refreshToken.count, 43)
            XCTAssertNotEqual(pair.value, login.value)
            XCTAssertNotEqual(pair.refreshToken, login.refreshToken)
            XCTAssertEqual(try contractDate(pair.expiresAt).timeIntervalSince(before), 600, accuracy: 3)
            XCTAssertNoThrow(try contractDate(pair.refreshExpiresAt))
            let newWorks = try await app.client.meStatus(pair.value)
            XCTAssertEqual(newWorks, 200)
            let next = try await app.client.refreshStatus(pair.refreshToken)
            XCTAssertEqual(next, 200, "the new refresh token works in turn")
        }
    }

    func testRefreshTokensAreStoredOnlyAsDigests() async throws {
        try await withTestApp { app in
            let login = try await app.client.session("admin")
            let pair = try await app.client.refreshed(login.refreshToken)
            let rows = try await app.til.db.query("SELECT digest FROM refresh_tokens")
            let digests = Set(try rows.map { try $0.decode(column: "digest", as: String.self) })
            XCTAssertEqual(digests, [SHA256.hex(of: login.refreshToken), SHA256.hex(of: pair.refreshToken)])
            let tokenRows = try await app.til.db.query("SELECT digest FROM tokens")
            let tokenDigests = Set(try tokenRows.map { try $0.decode(column: "digest", as: String.self) })
            XCTAssertEqual(tokenDigests, [SHA256.hex(of: login.value), SHA256.hex(of: pair.value)])
        }
    }

    func testOldAccessTokenLivesUntilItsOwnExpiry() async throws {
        try await withTestApp(settings: ["TOKEN_TTL": "1"]) { app in
            let user = try await User.create(on: app)
            let issued = Date()
            let login = try await app.client.session(user.username)
            _ = try await app.client.refreshed(login.refreshToken)
            let stillValid = try await app.client.meStatus(login.value)
            XCTAssertEqual(stillValid, 200, "a refresh does not end the access token issued with the spent refresh token")
            try await waitPastExpiry(of: login.expiresAt, issued: issued, ttl: 1)
            let old = try await app.client.send(.get, "/api/users/me", auth: .bearer(login.value))
            assertInvalidToken(old, "old access token after its TTL")
        }
    }

    func testReusedRefreshTokenRevokesTheWholeSession() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let login = try await app.client.session(user.username)
            let other = try await app.client.session(user.username)
            let pair = try await app.client.refreshed(login.refreshToken)
            let reuse = try await app.client.refresh(login.refreshToken)
            assertInvalidToken(reuse, "spent refresh token presented again")
            let newAccess = try await app.client.meStatus(pair.value)
            XCTAssertEqual(newAccess, 401, "the pair issued by the first refresh is revoked")
            let oldAccess = try await app.client.meStatus(login.value)
            XCTAssertEqual(oldAccess, 401, "the login's first access token is revoked")
            let newRefresh = try await app.client.refreshStatus(pair.refreshToken)
            XCTAssertEqual(newRefresh, 401, "the pair's refresh token is revoked")
            let otherSession = try await app.client.meStatus(other.value)
            XCTAssertEqual(otherSession, 200, "another session of the same user is untouched")
        }
    }

    func testUnknownRefreshTokenIs401() async throws {
        try await withTestApp { app in
            for token in [String(repeating: "A", count: 43), "short", String(repeating: "x", count: 600)] {
                let response = try await app.client.refresh(token)
                assertInvalidToken(response, "unknown refresh token \(token.prefix(8))")
                XCTAssertNoThrow(try response.decode(ErrorAnswer.self), response.bodyString)
            }
        }
    }

    func testAccessTokenIsNotARefreshToken() async throws {
        try await withTestApp { app in
            let login = try await app.client.session("admin")
            assertInvalidToken(try await app.client.refresh(login.value), "access token presented as refresh token")
        }
    }

    func testExpiredRefreshTokenIs401() async throws {
        try await withTestApp(settings: ["TOKEN_TTL": "1", "REFRESH_TOKEN_TTL": "1"]) { app in
            let issued = Date()
            let login = try await app.client.session("admin")
            try await waitPastExpiry(of: login.refreshExpiresAt, issued: issued, ttl: 1)
            assertInvalidToken(try await app.client.refresh(login.refreshToken), "expired refresh token")
        }
    }

    func testMissingFieldOrNonJSONIs400() async throws {
        try await withTestApp { app in
            let empty = try await app.client.send(.post, "/api/users/refresh", json: [String: String]())
            XCTAssertEqual(empty.status.code, 400, empty.bodyString)
            let wrongKey = try await app.client.send(.post, "/api/users/refresh", json: ["token": "abc"])
            XCTAssertEqual(wrongKey.status.code, 400, wrongKey.bodyString)
            let notJSON = try await app.client.send(
                .post, "/api/users/refresh", headers: ["Content-Type": "application/json"], body: Array("refreshToken=abc".utf8))
            XCTAssertEqual(notJSON.status.code, 400, notJSON.bodyString)
            XCTAssertNoThrow(try notJSON.decode(ErrorAnswer.self), notJSON.bodyString)
        }
    }

    func testConcurrentRefreshesWithOneTokenLetExactlyOneThrough() async throws {
        try await withTestApp { app in
            let login = try await app.client.session("admin")
            let client = app.client
            let token = login.refreshToken
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await client.refresh(token).status.code }
                }
                var statuses: [Int] = []
                for try await status in group { statuses.append(status) }
                return statuses
            }
            XCTAssertEqual(statuses.filter { $0 == 200 }.count, 1, "\(statuses)")
            XCTAssertEqual(statuses.filter { $0 == 401 }.count, 7, "\(statuses)")
        }
    }

    func testReuseWithinGraceGivesAFreshPairAndRevokesTheFirst() async throws {
        try await withTestApp(settings: ["REFRESH_REUSE_GRACE": "30"]) { app in
            let login = try await app.client.session("admin")
            let first = try await app.client.refreshed(login.refreshToken)
            let second = try await app.client.refreshed(login.refreshToken)
            XCTAssertEqual(second.id, login.id)
            XCTAssertNotEqual(second.value, first.value)
            XCTAssertNotEqual(second.refreshToken, first.refreshToken)
            let firstAccess = try await app.client.meStatus(first.value)
            XCTAssertEqual(firstAccess, 401, "the pair of the first presentation is revoked")
            let secondAccess = try await app.client.meStatus(second.value)
            XCTAssertEqual(secondAccess, 200, "the pair of the second presentation lives")
            let secondRefresh = try await app.client.refreshStatus(second.refreshToken)
            XCTAssertEqual(secondRefresh, 200, "the live pair's refresh token works")
            let firstRefresh = try await app.client.refreshStatus(first.refreshToken)
            XCTAssertEqual(firstRefresh, 401, "the revoked pair's refresh token does not")
        }
    }

    func testReusePastGraceRevokesTheSession() async throws {
        try await withTestApp(settings: ["REFRESH_REUSE_GRACE": "1"]) { app in
            let login = try await app.client.session("admin")
            let pair = try await app.client.refreshed(login.refreshToken)
            try await pause(1.6)
            assertInvalidToken(try await app.client.refresh(login.refreshToken), "reuse after the grace window")
            let pairAccess = try await app.client.meStatus(pair.value)
            XCTAssertEqual(pairAccess, 401, "session revoked")
            let pairRefresh = try await app.client.refreshStatus(pair.refreshToken)
            XCTAssertEqual(pairRefresh, 401, "session revoked")
        }
    }
}
