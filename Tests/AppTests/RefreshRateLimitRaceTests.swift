import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// `REFRESH_RATE_LIMIT` when presentations race at its boundary: the count is taken where the
/// token is redeemed (or, within the grace, under the spent token's lock), so however many
/// arrive together exactly the limit goes through, and the refused ones spend and revoke nothing.
final class RefreshRateLimitRaceTests: XCTestCase {
    /// Limit 3, one refresh made: eight retries of the spent token at once within the grace.
    /// Exactly two more pairs are issued, the other six wait, and one pair stays live.
    func testConcurrentRetriesWithinTheGraceLetExactlyTheLimitThrough() async throws {
        try await withTestApp(settings: ["REFRESH_RATE_LIMIT": "3", "REFRESH_REUSE_GRACE": "60"]) { app in
            let login = try await app.client.session("admin")
            _ = try await app.client.refreshed(login.refreshToken)
            let client = app.client, token = login.refreshToken
            let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<8 { group.addTask { try await client.refresh(token) } }
                return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
            }
            let codes = answers.map(\.status.code).sorted()
            XCTAssertEqual(codes, [200, 200, 429, 429, 429, 429, 429, 429])
            for refused in answers where refused.status.code == 429 {
                XCTAssertNotNil(Int(refused.headers["Retry-After"] ?? ""), refused.bodyString)
            }
            var working = 0
            for answer in answers where answer.status.code == 200 {
                if try await client.meStatus(try answer.decode(LoginAnswer.self).value) == 200 { working += 1 }
            }
            XCTAssertEqual(working, 1, "the last retry's pair alone")
            let issued = try await app.number(
                "SELECT count(*) AS n FROM refresh_tokens WHERE session_id = \(login.id) AND parent_id IS NOT NULL")
            XCTAssertEqual(issued, 3, "pairs issued by refreshes in the minute: the limit")
            let revoked = try await app.isRevoked(session: login.id)
            XCTAssertFalse(revoked, "a retry refused by the limit is no reuse")
        }
    }

    /// Limit 2, reached: eight presentations of the live token at once are all refused, none
    /// spends it (so none is a reuse), and once the minute is over one of eight goes through.
    func testConcurrentPresentationsAtTheLimitAreAllRefusedAndSpendNothing() async throws {
        try await withTestApp(settings: ["REFRESH_RATE_LIMIT": "2"]) { app in
            let login = try await app.client.session("admin")
            var token = login.refreshToken
            for _ in 1...2 { token = try await app.client.refreshed(token).refreshToken }
            let client = app.client, current = token
            let atLimit = try await statusCodes(of: (0..<8).map { _ in { try await client.refresh(current) } })
            XCTAssertEqual(atLimit, Array(repeating: 429, count: 8))
            let live = try await app.liveRefreshTokens(of: login.id)
            XCTAssertEqual(live, 1, "the refused token is still redeemable")
            let revoked = try await app.isRevoked(session: login.id)
            XCTAssertFalse(revoked)

            try await app.til.db.execute("""
                UPDATE refresh_tokens SET created_at = created_at - interval '61 seconds' WHERE session_id = \(login.id)
                """)
            let after = try await statusCodes(of: (0..<8).map { _ in { try await client.refresh(current) } })
            XCTAssertEqual(after.filter { $0 == 200 }.count, 1, "\(after.sorted())")
        }
    }
}
