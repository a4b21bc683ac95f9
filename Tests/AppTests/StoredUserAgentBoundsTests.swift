import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// A stored User-Agent is at most 256 characters, counted after the invisible and control
/// characters are gone: padding a header with zero-width characters neither hides the rest nor
/// makes the stored text longer. (Which characters go: `InvisibleCharacterTests`.)
final class StoredUserAgentBoundsTests: XCTestCase {
    func testAUserAgentIsStoredCutTo256VisibleCharacters() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let agents = [
                String(repeating: "A", count: 8000),
                String(repeating: "\u{200B}", count: 1000) + "Real/1.0",
                "Tool/" + String(repeating: "é\u{200D}", count: 400),
                String(repeating: " ", count: 300) + "Spaced/2.0" + String(repeating: " ", count: 300),
            ]
            for agent in agents { _ = try await app.client.session(user.username, headers: ["User-Agent": agent]) }
            let rows = try await app.til.db.query("SELECT user_agent FROM sessions WHERE user_id = \(user.id) ORDER BY created_at")
            let stored = try rows.map { try $0.decode(column: "user_agent", as: String?.self) }
            XCTAssertEqual(stored, [
                String(repeating: "A", count: 256), "Real/1.0", "Tool/" + String(repeating: "é", count: 251), "Spaced/2.0",
            ])
        }
    }

    /// One character may carry any number of combining marks: the stored text is also cut to
    /// 1,024 UTF-8 bytes, at a character boundary.
    func testAUserAgentIsStoredCutTo1024Bytes() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let heavy = "e" + String(repeating: "\u{301}", count: 3000)  // one character, 6,001 bytes
            _ = try await app.client.session(user.username, headers: ["User-Agent": "Tool/1.0 " + heavy + "x"])
            let rows = try await app.til.db.query("SELECT user_agent FROM sessions WHERE user_id = \(user.id)")
            let stored = try rows.first?.decode(column: "user_agent", as: String?.self)
            XCTAssertEqual(stored, "Tool/1.0", "the heavy character does not fit whole, so it is left out")
        }
    }
}
