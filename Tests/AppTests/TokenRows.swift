import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

// What the token tests read and change straight in the database: a session's rows, the
// purger as the app runs it, and a refresh token's row by its clear value.

extension TestApp {
    /// The `n` of a one-row query (`SELECT count(*) AS n ...`).
    func number(_ sql: PostgresQuery) async throws -> Int {
        let row = try await til.db.query(sql).first
        return try XCTUnwrap(row, "no row").decode(column: "n", as: Int.self)
    }

    /// Refresh tokens of `session` that could still be redeemed: neither spent nor revoked.
    func liveRefreshTokens(of session: UUID) async throws -> Int {
        try await number("""
            SELECT count(*) AS n FROM refresh_tokens WHERE session_id = \(session) AND spent_at IS NULL AND revoked_at IS NULL
            """)
    }

    /// Whether `session` has been ended (revoked).
    func isRevoked(session: UUID) async throws -> Bool {
        try await number("SELECT count(*) AS n FROM sessions WHERE id = \(session) AND revoked_at IS NOT NULL") == 1
    }

    /// Runs `sql` against the row of the refresh token whose clear value is `token`
    /// (`UPDATE refresh_tokens SET ... WHERE digest = $1`, the digest appended).
    func updateRefreshToken(_ token: String, set assignments: String) async throws {
        try await til.db.execute("UPDATE refresh_tokens SET \(unescaped: assignments) WHERE digest = \(SHA256.hex(of: token))")
    }

    /// A purger exactly as the app builds one.
    var purger: TokenPurger {
        TokenPurger(db: til.db, loginFailureRetention: til.configuration.auth.loginFailureRetention, logger: app.logger)
    }
}

/// Asserts the 401 of a reuse: the spent token's whole session is revoked.
func assertReuseDetected(_ response: TestResponse, _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
    assertInvalidToken(response, message, file: file, line: line)
    XCTAssertTrue(response.bodyString.contains("already used"), "\(message): \(response.bodyString)", file: file, line: line)
}
