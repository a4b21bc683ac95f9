import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The background purge removes expired resets and the requests no limit counts any more, and
/// leaves a live reset and the requests of the last hour.
final class PasswordResetPurgeTests: XCTestCase {
    func testExpiredResetsAndUncountedRequestsArePurged() async throws {
        try await withTestApp { app in
            let (expired, expiredEmail) = try await app.userWithVerifiedEmail()
            let (live, liveEmail) = try await app.userWithVerifiedEmail()
            _ = try await app.resetToken(for: expired.username, mailedTo: expiredEmail)
            let token = try await app.resetToken(for: live.username, mailedTo: liveEmail)
            try await app.til.db.execute("UPDATE password_resets SET expires_at = now() - interval '1 second' WHERE user_id = \(expired.id)")
            try await app.til.db.execute("""
                UPDATE password_reset_requests SET requested_at = now() - interval '61 minutes' WHERE user_id = \(expired.id)
                """)

            let removed = try await TokenPurger(db: app.til.db, loginFailureRetention: .seconds(3600), logger: app.app.logger).purgeOnce()
            XCTAssertEqual(removed, 2, "the expired reset and its request")
            let resets = try await app.number("SELECT count(*)::int AS n FROM password_resets")
            let requests = try await app.number("SELECT count(*)::int AS n FROM password_reset_requests WHERE user_id = \(live.id)")
            XCTAssertEqual([resets, requests], [1, 1])
            let confirmed = try await app.confirmReset(["token": token, "newPassword": "after-the-purge"])
            XCTAssertEqual(confirmed.status.code, 204, confirmed.bodyString)
        }
    }
}
