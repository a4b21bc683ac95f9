import App
import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest

/// Issue 17: refresh had no rate limit (about 420 a second from one client), and every
/// refresh leaves a row. `REFRESH_RATE_LIMIT` refreshes per session per minute, then 429.
final class RefreshRateLimitTests: XCTestCase {
    func testRefreshIsThrottledPerSessionWith429AndRetryAfter() async throws {
        try await withTestApp(settings: ["REFRESH_RATE_LIMIT": "3"]) { app in
            let contract = try await OpenAPIContract.served(by: app)
            let login = try await app.client.session("admin")
            var token = login.refreshToken
            for _ in 1...3 { token = try await app.client.refreshed(token).refreshToken }

            let refused = try await app.client.refresh(token)
            XCTAssertEqual(refused.status.code, 429, refused.bodyString)
            let retryAfter = try XCTUnwrap(Int(refused.headers["Retry-After"] ?? ""), "Retry-After")
            XCTAssertTrue((1...60).contains(retryAfter), "Retry-After: \(retryAfter)")
            let error = try refused.decode(ErrorAnswer.self)
            XCTAssertTrue(error.error)
            XCTAssertTrue(error.reason.contains("\(retryAfter) seconds"), error.reason)
            contract.check(refused, .post, "/api/users/refresh")
            let live = try await app.liveRefreshTokens(of: login.id)
            XCTAssertEqual(live, 1, "the refused token is not spent")
            let stillLive = try await app.isRevoked(session: login.id)
            XCTAssertFalse(stillLive, "a throttled refresh is no reuse")

            let other = try await app.client.session("admin")
            let otherStatus = try await app.client.refreshStatus(other.refreshToken)
            XCTAssertEqual(otherStatus, 200, "the limit is per session")

            // The minute passes (the session's refreshes moved back): the same token works.
            try await app.til.db.execute("""
                UPDATE refresh_tokens SET created_at = created_at - interval '61 seconds' WHERE session_id = \(login.id)
                """)
            let retried = try await app.client.refreshStatus(token)
            XCTAssertEqual(retried, 200, "the token refused with 429 is redeemed after the wait")
        }
    }

    /// Retries within `REFRESH_REUSE_GRACE` count too: they issue pairs like refreshes.
    func testRetriesWithinTheGraceAreThrottledToo() async throws {
        try await withTestApp(settings: ["REFRESH_RATE_LIMIT": "2", "REFRESH_REUSE_GRACE": "60"]) { app in
            let login = try await app.client.session("admin")
            _ = try await app.client.refreshed(login.refreshToken)
            let retry = try await app.client.refreshed(login.refreshToken)
            let third = try await app.client.refresh(login.refreshToken)
            XCTAssertEqual(third.status.code, 429, third.bodyString)
            XCTAssertNotNil(third.headers["Retry-After"])
            let retryAccess = try await app.client.meStatus(retry.value)
            XCTAssertEqual(retryAccess, 200, "the refused retry revoked nothing")
        }
    }

    /// The default, 30 a minute, lets a client refresh as often as any sane one does.
    func testTheDefaultAllowsThirtyRefreshesAMinute() async throws {
        try await withTestApp { app in
            var token = try await app.client.session("admin").refreshToken
            for _ in 1...30 { token = try await app.client.refreshed(token).refreshToken }
            let refused = try await app.client.refreshStatus(token)
            XCTAssertEqual(refused, 429)
        }
    }
}
