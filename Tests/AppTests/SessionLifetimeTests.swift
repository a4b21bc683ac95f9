import App
import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest

/// Issue 17: a session refreshed forever lived forever. `SESSION_MAX_LIFETIME` (90 days by
/// default) from the login is its absolute end: no expiry shown or enforced passes it.
final class SessionLifetimeTests: XCTestCase {
    /// A session of 2 seconds with tokens of a minute and ten: both expiries stop at its end,
    /// a refresh does not move it, and past it nothing works.
    func testRefreshCannotExtendASessionPastItsMaxLifetime() async throws {
        try await withTestApp(settings: ["SESSION_MAX_LIFETIME": "2", "TOKEN_TTL": "60", "REFRESH_TOKEN_TTL": "600"]) { app in
            let issued = Date()
            let login = try await app.client.session("admin")
            let end = try contractDate(login.refreshExpiresAt)
            XCTAssertEqual(login.expiresAt, login.refreshExpiresAt, "the access token stops at the session's end too")
            XCTAssertEqual(end.timeIntervalSince(issued), 2, accuracy: 1, "2 seconds, in whole seconds")
            let pair = try await app.client.refreshed(login.refreshToken)
            XCTAssertEqual(pair.refreshExpiresAt, login.refreshExpiresAt, "a refresh does not extend the session")
            XCTAssertEqual(pair.expiresAt, login.refreshExpiresAt)

            try await pause(min(max(0, end.timeIntervalSinceNow), 3) + 0.2)  // at most 3 s, even when the end is wrong
            assertInvalidToken(try await app.client.refresh(pair.refreshToken), "refresh past the session's end")
            let access = try await app.client.meStatus(pair.value)
            XCTAssertEqual(access, 401, "access past the session's end")
        }
    }

    /// The default: 90 days from the login. A session logged in 90 days less half an hour ago
    /// gets a pair that ends with it, shown so in the answer and in the session list.
    func testTheDefaultEndIsNinetyDaysAfterTheLogin() async throws {
        try await withTestApp { app in
            let login = try await app.client.session("admin")
            try await app.til.db.execute("""
                UPDATE sessions SET created_at = now() - interval '90 days' + interval '30 minutes' WHERE id = \(login.id)
                """)
            let row = try await app.til.db.query("""
                SELECT date_trunc('second', created_at + interval '90 days') AS ends FROM sessions WHERE id = \(login.id)
                """).first
            let end = try XCTUnwrap(row).decode(column: "ends", as: Date.self)
            let pair = try await app.client.refreshed(login.refreshToken)
            XCTAssertEqual(try contractDate(pair.refreshExpiresAt), end, "capped at the end, not 30 days on")
            XCTAssertEqual(try contractDate(pair.expiresAt), end, "the access token too, not an hour on")
            let listed = try await app.client.send(.get, "/api/users/me/sessions", auth: .bearer(pair.value))
            let entry = try XCTUnwrap(try listed.decode([SessionEntry].self).first { $0.id == login.id })
            XCTAssertEqual(entry.refreshExpiresAt, pair.refreshExpiresAt)
        }
    }
}
