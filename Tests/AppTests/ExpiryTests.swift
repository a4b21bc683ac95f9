import App
import AppTesting
import Foundation
import Postgres
import TILWire
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
}
