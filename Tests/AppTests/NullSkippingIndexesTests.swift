import AppTesting
import Crypt
import Foundation
import Postgres
import XCTest
@testable import App

/// `NullSkippingIndexes`: the three indexes a `client_credentials` issuance filled with NULLs
/// now skip them, and nothing else changed: a cookie digest is still unique under the same
/// constraint name, and the user lookups still use their indexes.
final class NullSkippingIndexesTests: XCTestCase {
    func testTheIndexesSkipNullsAndKeepTheirNames() async throws {
        try await withTestApp { app in
            let rows = try await app.til.db.query("""
                SELECT indexname, indexdef FROM pg_indexes
                WHERE indexname IN ('sessions_browser_digest_key', 'sessions_user_id', 'tokens_user_id') ORDER BY indexname
                """)
            let definitions = try rows.map { (try $0.decode(column: "indexname", as: String.self), try $0.decode(column: "indexdef", as: String.self)) }
            XCTAssertEqual(definitions.map(\.0), ["sessions_browser_digest_key", "sessions_user_id", "tokens_user_id"])
            for (name, definition) in definitions {
                XCTAssertTrue(definition.contains("IS NOT NULL"), "\(name): \(definition)")
            }
            XCTAssertTrue(definitions[0].1.hasPrefix("CREATE UNIQUE INDEX"), definitions[0].1)
        }
    }

    /// Two browser sessions with one cookie digest: the second is still refused, as the same
    /// `sessions_browser_digest_key`, while sessions without a cookie never conflict.
    func testACookieDigestIsStillUnique() async throws {
        try await withTestApp { app in
            let user = try await User.create(username: "nia", on: app)
            let digest = SHA256.hex(of: "cookie-\(UUID())")
            let insert: (String?, String) -> PostgresQuery = { browserDigest, kind in
                """
                INSERT INTO sessions (id, user_id, kind, browser_digest, scopes, expires_at, refresh_expires_at)
                VALUES (\(UUID()), \(user.id), \(kind), \(browserDigest), '', now() + interval '1 hour', now() + interval '1 hour')
                """
            }
            _ = try await app.til.db.query(insert(digest, "browser"))
            _ = try await app.til.db.query(insert(nil, "login"))
            _ = try await app.til.db.query(insert(nil, "login"))
            do {
                _ = try await app.til.db.query(insert(digest, "browser"))
                XCTFail("a second session with the same cookie digest was stored")
            } catch let error as PostgresError {
                XCTAssertEqual(error.sqlState, .uniqueViolation)
                XCTAssertEqual(error.constraint, "sessions_browser_digest_key")
            }
        }
    }

    /// The lookups by user (`= $n`, which implies NOT NULL) still find the partial indexes.
    func testLookupsByUserStillUseTheIndexes() async throws {
        try await withTestApp { app in
            let db = app.til.db
            let nobody = UUID().uuidString
            for (statement, index) in [
                ("EXPLAIN SELECT id FROM sessions WHERE user_id = '\(nobody)' AND revoked_at IS NULL", "sessions_user_id"),
                ("EXPLAIN SELECT id FROM tokens WHERE user_id = '\(nobody)'", "tokens_user_id"),
                ("EXPLAIN SELECT id FROM sessions WHERE browser_digest = 'x'", "sessions_browser_digest_key"),
            ] {
                let plan = try await db.withTransaction { tx in
                    _ = try await tx.query("SET LOCAL enable_seqscan = off")
                    return try await tx.query(PostgresQuery(unsafeSQL: statement))
                }
                let text = try plan.map { try $0.decode(column: "QUERY PLAN", as: String.self) }.joined(separator: "\n")
                XCTAssertTrue(text.contains(index), "\(statement):\n\(text)")
            }
        }
    }
}
