import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Refresh-token rotation of issue 17 with two `til-server` processes over one database: the
/// rate limit, the one-winner redemption and the grace's single live pair are decided in
/// PostgreSQL, so a client (or a thief) that reaches both processes gets no more than from one.
/// (`TwoProcessTests` has a spent token replayed on the other process.)
final class RefreshAcrossProcessesTests: ServerProcessTestCase {
    private func start(_ settings: [String: String] = [:]) async throws -> (TestClient, TestClient) {
        servers = try await ServerProcess.healthy(2, settings: settings)
        return (servers[0].client, servers[1].client)
    }

    func testTheRateLimitCountsRefreshesOnBothProcesses() async throws {
        try await withTestApp { app in
            let (a, b) = try await start(["REFRESH_RATE_LIMIT": "3"])
            let login = try await a.session("admin")
            var token = login.refreshToken
            for client in [a, b, a] { token = try await client.refreshed(token).refreshToken }

            let refused = try await b.refresh(token)
            XCTAssertEqual(refused.status.code, 429, "the fourth refresh in a minute, on B: \(refused.bodyString)")
            let retryAfter = Int(refused.headers["Retry-After"] ?? "") ?? 0
            XCTAssertTrue((1...60).contains(retryAfter), "Retry-After: \(retryAfter)")
            let aRefuses = try await a.refreshStatus(token)
            XCTAssertEqual(aRefuses, 429, "and on A")
            let live = try await app.liveRefreshTokens(of: login.id)
            XCTAssertEqual(live, 1, "neither refusal spent the token")

            try await app.til.db.execute("""
                UPDATE refresh_tokens SET created_at = created_at - interval '61 seconds' WHERE session_id = \(login.id)
                """)
            let after = try await b.refreshStatus(token)
            XCTAssertEqual(after, 200, "the minute over, the same token is redeemed")
        }
    }

    /// One token presented eight times at once, half through each process: one pair is issued,
    /// and the other presentations are reuses that revoke the session (strict detection).
    func testConcurrentPresentationsSplitAcrossProcessesLetExactlyOneThrough() async throws {
        try await withTestApp { app in
            let (a, b) = try await start()
            let login = try await a.session("admin")
            let token = login.refreshToken
            let codes = try await statusCodes(of: (0..<8).map { presentation in
                let client = presentation.isMultiple(of: 2) ? a : b
                return { try await client.refresh(token) }
            })
            XCTAssertEqual(codes.filter { $0 == 200 }.count, 1, "\(codes.sorted())")
            XCTAssertEqual(codes.filter { $0 == 401 }.count, 7, "\(codes.sorted())")
            let revoked = try await app.isRevoked(session: login.id)
            XCTAssertTrue(revoked, "a second presentation proves a second holder")
        }
    }

    /// Within `REFRESH_REUSE_GRACE`, a just-spent token retried through A and B at once: each
    /// retry supersedes the one before, across processes, so exactly one pair stays live.
    func testRetriesWithinTheGraceSplitAcrossProcessesLeaveOneLivePair() async throws {
        try await withTestApp { app in
            let (a, b) = try await start(["REFRESH_REUSE_GRACE": "60"])
            for trial in 1...10 {
                let login = try await a.session("admin")
                _ = try await b.refreshed(login.refreshToken)
                async let throughA = a.refresh(login.refreshToken)
                async let throughB = b.refresh(login.refreshToken)
                let answers = try await [throughA, throughB]
                XCTAssertEqual(answers.map(\.status.code), [200, 200], "trial \(trial)")
                var working = 0
                for answer in answers where answer.status.code == 200 {
                    if try await a.meStatus(try answer.decode(LoginAnswer.self).value) == 200 { working += 1 }
                }
                XCTAssertEqual(working, 1, "trial \(trial): working access tokens of the two retries")
                let live = try await app.liveRefreshTokens(of: login.id)
                XCTAssertEqual(live, 1, "trial \(trial): live refresh tokens")
            }
        }
    }
}
