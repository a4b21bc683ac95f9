import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Issue 17: reuse detection lasts as long as the session can be live, not a day. A thief who
/// refreshed first keeps the session going; the real client, idle for days (a CLI), comes
/// back with the spent token, and that must still revoke the thief's pair.
final class RefreshReuseRetentionTests: XCTestCase {
    private let day: TimeInterval = 86400

    /// The purger, as production runs it, two days on: the spent token's row is still there,
    /// and presenting it revokes the session. (Before: deleted after a day, then "unknown".)
    func testReuseDetectionDoesNotStopADayAfterATokenIsSpent() async throws {
        // Access tokens of a week: two days on, only a revocation can make them fail.
        try await withTestApp(settings: ["TOKEN_TTL": "604800"]) { app in
            let login = try await app.client.session("admin")
            let thief = try await app.client.refreshed(login.refreshToken)
            let removed = try await app.purger.purgeOnce(asOf: Date().addingTimeInterval(2 * day))
            XCTAssertEqual(removed, 0, "nothing of a live session goes")
            let kept = try await app.number("SELECT count(*) AS n FROM refresh_tokens WHERE session_id = \(login.id)")
            XCTAssertEqual(kept, 2, "the spent token and its successor stay while the session lives")

            assertReuseDetected(try await app.client.refresh(login.refreshToken), "the spent token two purges later")
            let thiefAccess = try await app.client.meStatus(thief.value)
            XCTAssertEqual(thiefAccess, 401, "the thief's access token is revoked")
            let thiefRefresh = try await app.client.refreshStatus(thief.refreshToken)
            XCTAssertEqual(thiefRefresh, 401, "the thief's refresh token is revoked")
            let revoked = try await app.isRevoked(session: login.id)
            XCTAssertTrue(revoked)
        }
    }

    /// A spent token's own expiry does not end reuse detection: the session it belongs to
    /// lives on through its successors. (Before: "expired" was checked first, and nothing revoked.)
    func testASpentTokenPastItsOwnExpiryIsStillAReuse() async throws {
        try await withTestApp { app in
            let login = try await app.client.session("admin")
            let thief = try await app.client.refreshed(login.refreshToken)
            try await app.updateRefreshToken(login.refreshToken, set: "expires_at = now() - interval '1 second'")
            assertReuseDetected(try await app.client.refresh(login.refreshToken), "a spent token past its own expiry")
            let thiefAccess = try await app.client.meStatus(thief.value)
            XCTAssertEqual(thiefAccess, 401, "the session is revoked")
        }
    }

    /// Refresh tokens go with their session: a day after it ended or expired, all of them, and
    /// the session row after its tokens. Another user's live session keeps everything.
    func testRefreshTokensArePurgedWithTheirSessionADayAfterItEnds() async throws {
        try await withTestApp(settings: ["REFRESH_TOKEN_TTL": "86400"]) { app in
            let user = try await User.create(on: app)
            let ended = try await app.client.session("admin")
            _ = try await app.client.refreshed(ended.refreshToken)
            let endedStatus = try await app.client.send(.post, "/api/users/logout", auth: .bearer(ended.value)).status.code
            XCTAssertEqual(endedStatus, 204)
            let expiring = try await app.client.session(user.username)
            let renewed = try await app.client.refreshed(expiring.refreshToken)
            let live = try await app.client.session(user.username)

            func rows(_ session: UUID) async throws -> Int {
                try await app.number("SELECT count(*) AS n FROM refresh_tokens WHERE session_id = \(session)")
                    + app.number("SELECT count(*) AS n FROM sessions WHERE id = \(session)")
            }
            try await app.purger.purgeOnce(asOf: Date().addingTimeInterval(0.9 * day))
            let withinADay = [try await rows(ended.id), try await rows(expiring.id), try await rows(live.id)]
            XCTAssertEqual(withinADay, [3, 3, 2], "nothing goes in the day after a session ends")

            // Two days on: the logged-out session's day has passed; the other two expired a day
            // after login (REFRESH_TOKEN_TTL), so they have one day more to go.
            try await app.purger.purgeOnce(asOf: Date().addingTimeInterval(2 * day - 60))
            let afterTwoDays = [try await rows(ended.id), try await rows(expiring.id), try await rows(live.id)]
            XCTAssertEqual(afterTwoDays, [0, 3, 2])
            try await app.purger.purgeOnce(asOf: try contractDate(renewed.refreshExpiresAt).addingTimeInterval(day + 1))
            let afterExpiry = [try await rows(expiring.id), try await rows(live.id)]
            XCTAssertEqual(afterExpiry, [0, 0])
        }
    }
}
