import App
import AppTesting
import Foundation
import Postgres
import TILWire
import Web
import WebTesting
import XCTest

/// Expiries are stored as they are shown: whole seconds, so a client told `13:00:00Z` holds a
/// token that works until 13:00:00 and not a moment past it.
final class ExpiryTests: XCTestCase {
    func testTheExpiryShownIsTheExpiryStored() async throws {
        try await withTestApp(settings: ["TOKEN_TTL": "600"]) { app in
            let answer = try await app.client.login("admin", "password")
            let token = try answer.decode(Token.self)
            let rows = try await app.til.db.query("""
                SELECT s.expires_at, s.refresh_expires_at, t.expires_at AS access_expires_at,
                       r.expires_at AS refresh_token_expires_at
                FROM sessions s JOIN tokens t ON t.session_id = s.id JOIN refresh_tokens r ON r.session_id = s.id
                WHERE s.id = \(token.id)
                """)
            let row = try XCTUnwrap(rows.first)
            XCTAssertEqual(try row.decode(column: "expires_at", as: Date.self), token.expiresAt)
            XCTAssertEqual(try row.decode(column: "access_expires_at", as: Date.self), token.expiresAt)
            XCTAssertEqual(try row.decode(column: "refresh_expires_at", as: Date.self), token.refreshExpiresAt)
            XCTAssertEqual(try row.decode(column: "refresh_token_expires_at", as: Date.self), token.refreshExpiresAt)
            XCTAssertEqual(token.expiresAt.timeIntervalSince1970.rounded(.down), token.expiresAt.timeIntervalSince1970)
        }
    }

    /// Issue 17: `expiresAt` is shown in whole seconds, and a token worked up to a second past
    /// it. Now each expiry is refused from the very second it shows: the access token, the
    /// refresh token and the session (gone from the session list).
    func testATokenIsRefusedAtTheSecondItsExpiryShows() async throws {
        try await withTestApp(settings: ["TOKEN_TTL": "1", "REFRESH_TOKEN_TTL": "2"]) { app in
            for _ in 1...3 {
                let login = try await app.client.session("admin")
                let access = try await Self.atTheSecond(of: login.expiresAt) { try await app.client.meStatus(login.value) }
                let refresh = try await Self.atTheSecond(of: login.refreshExpiresAt) { () async throws -> [Int] in
                    let other = try await app.client.session("admin")
                    let listed = try await app.client.send(.get, "/api/users/me/sessions", auth: .bearer(other.value))
                    let sessions = try listed.decode([SessionEntry].self).map(\.id)
                    return [sessions.contains(login.id) ? 1 : 0, try await app.client.refreshStatus(login.refreshToken)]
                }
                guard let access, let refresh else { continue }  // too slow to land within the second: again
                XCTAssertEqual(access, 401, "the access token at its expiresAt second")
                XCTAssertEqual(refresh, [0, 401], "the session listed, the refresh token at its refreshExpiresAt second")
                return
            }
            XCTFail("three attempts did not land within the second")
        }
    }

    /// `probe`'s result, run as soon as the clock reaches `expiry` (as shown); nil when it
    /// ended a second or more later, so it did not test that second.
    private static func atTheSecond<T>(of expiry: String, _ probe: () async throws -> T) async throws -> T? {
        let shown = try contractDate(expiry)
        let wait = shown.timeIntervalSinceNow + 0.01
        if wait > 0 { try await Task.sleep(for: .milliseconds(Int(wait * 1000))) }
        let result = try await probe()
        return Date() < shown.addingTimeInterval(1) ? result : nil
    }
}
