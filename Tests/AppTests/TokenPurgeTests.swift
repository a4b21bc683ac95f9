import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The background purge removes what the lifecycle leaves behind, and nothing still in use.
final class TokenPurgeTests: XCTestCase {
    func testPurgeRemovesExpiredAndSpentRowsAndKeepsLiveOnes() async throws {
        try await withTestApp { app in
            let live = try await app.client.session("admin")
            let ended = try await app.client.session("admin")
            let db = app.til.db
            // Age the second login: its access token expired, its refresh token spent two days ago,
            // the session ended two days ago; plus a failed login no rule counts any more, one that
            // the account backoff still counts, and the admin's login address last used 31 days ago.
            try await db.execute("UPDATE tokens SET expires_at = now() - interval '1 hour' WHERE session_id = \(ended.id)")
            try await db.execute("UPDATE refresh_tokens SET spent_at = now() - interval '2 days' WHERE session_id = \(ended.id)")
            try await db.execute("UPDATE sessions SET revoked_at = now() - interval '2 days' WHERE id = \(ended.id)")
            try await db.execute("INSERT INTO login_failures (username, address, at) VALUES ('x', '192.0.2.1', now() - interval '1 day')")
            try await db.execute("INSERT INTO login_failures (username, address, at) VALUES ('y', '192.0.2.1', now() - interval '30 minutes')")
            try await db.execute("UPDATE login_known_origins SET last_success_at = now() - interval '31 days'")

            let purger = TokenPurger(db: db, loginFailureRetention: .seconds(3600), logger: app.app.logger)
            let removed = try await purger.purgeOnce()
            XCTAssertEqual(removed, 5)  // access token, refresh token, session, failure, known address

            func count(_ sql: PostgresQuery) async throws -> Int {
                try await db.query(sql).first!.decode(column: "n", as: Int.self)
            }
            let endedSessions = try await count("SELECT count(*) AS n FROM sessions WHERE id = \(ended.id)")
            let failures = try await count("SELECT count(*) AS n FROM login_failures WHERE username = 'x'")
            let counted = try await count("SELECT count(*) AS n FROM login_failures WHERE username = 'y'")
            let knownOrigins = try await count("SELECT count(*) AS n FROM login_known_origins")
            let liveTokens = try await count("SELECT count(*) AS n FROM tokens WHERE session_id = \(live.id)")
            let liveRefreshTokens = try await count("SELECT count(*) AS n FROM refresh_tokens WHERE session_id = \(live.id)")
            XCTAssertEqual([endedSessions, failures, counted, knownOrigins, liveTokens, liveRefreshTokens], [0, 0, 1, 0, 1, 1])
            let me = try await app.client.send(.get, "/api/users/me", auth: .bearer(live.value))
            XCTAssertEqual(me.status, .ok)
            let second = try await purger.purgeOnce()
            XCTAssertEqual(second, 0)
        }
    }

    /// Authorization codes go a day after they expired, redeemed or not; younger ones stay.
    func testPurgeRemovesAuthorizationCodesADayAfterTheyExpired() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "codes", on: app)
            let client = try await StoredClient.create(trusted: true, on: app)
            let browser = BrowserClient(app.client)
            try await browser.signIn("codes")
            for _ in 0..<3 { _ = try await browser.get(AuthorizationFlowTests.authorize(client, PKCEPair())) }
            let db = app.til.db
            try await db.execute("""
                UPDATE oauth_codes SET expires_at = now() - interval '25 hours', redeemed_at = now() - interval '25 hours'
                WHERE digest = (SELECT min(digest) FROM oauth_codes)
                """)
            try await db.execute("""
                UPDATE oauth_codes SET expires_at = now() - interval '23 hours' WHERE digest = (SELECT max(digest) FROM oauth_codes)
                """)
            let purger = TokenPurger(db: db, loginFailureRetention: .seconds(3600), logger: app.app.logger)
            let removed = try await purger.purgeOnce()
            XCTAssertEqual(removed, 1)
            let left = try await db.query("SELECT count(*) AS n FROM oauth_codes").first!.decode(column: "n", as: Int.self)
            XCTAssertEqual(left, 2, "the live code and the one expired less than a day ago stay")
        }
    }
}
