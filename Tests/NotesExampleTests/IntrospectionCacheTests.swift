import Foundation
import XCTest
@testable import NotesExample

/// The notes API's introspection cache on a clock of the test's own: an answer lives at most
/// the configured lifetime and never past the token's `exp`; only active answers are kept; the
/// size is bounded; and no token is held, only its digest.
final class IntrospectionCacheTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 2_000_000_000)

    private func active(exp: Int64? = nil, scope: String = "notes:read") throws -> IntrospectionResult {
        var fields: [String: Any] = ["active": true, "scope": scope, "aud": "https://notes.example", "sub": "u1"]
        if let exp { fields["exp"] = exp }
        return try JSONDecoder().decode(IntrospectionResult.self, from: JSONSerialization.data(withJSONObject: fields))
    }

    func testAnAnswerLivesTheLifetimeOrUntilExpWhicheverIsFirst() throws {
        let cache = IntrospectionCache(lifetime: .seconds(5))
        let far = Int64(now.timeIntervalSince1970) + 3600
        cache.store(try active(exp: far), for: "long-lived", now: now)
        XCTAssertNotNil(cache.result(for: "long-lived", now: now.addingTimeInterval(4.9)))
        XCTAssertNil(cache.result(for: "long-lived", now: now.addingTimeInterval(5)), "the lifetime, though exp is an hour away")

        let soon = Int64(now.timeIntervalSince1970) + 2
        cache.store(try active(exp: soon), for: "expiring", now: now)
        XCTAssertNotNil(cache.result(for: "expiring", now: now.addingTimeInterval(1.9)))
        XCTAssertNil(cache.result(for: "expiring", now: now.addingTimeInterval(2)), "never past exp, though the lifetime is 5 s")

        cache.store(try active(exp: Int64(now.timeIntervalSince1970)), for: "expired", now: now)
        XCTAssertNil(cache.result(for: "expired", now: now), "an answer already past exp is not kept")
        cache.store(try active(), for: "no exp", now: now)
        XCTAssertNotNil(cache.result(for: "no exp", now: now.addingTimeInterval(4.9)))
        XCTAssertNil(cache.result(for: "no exp", now: now.addingTimeInterval(5)))
    }

    func testInactiveAnswersAndAZeroLifetimeKeepNothing() throws {
        let inactive = try JSONDecoder().decode(IntrospectionResult.self, from: Data(#"{"active":false}"#.utf8))
        let cache = IntrospectionCache(lifetime: .seconds(5))
        cache.store(inactive, for: "made-up", now: now)
        XCTAssertNil(cache.result(for: "made-up", now: now))
        XCTAssertEqual(cache.count, 0)
        let off = IntrospectionCache(lifetime: .zero)
        off.store(try active(), for: "token", now: now)
        XCTAssertEqual(off.count, 0)
    }

    func testAFullCacheDropsExpiredEntriesThenTheSoonestToExpire() throws {
        let cache = IntrospectionCache(lifetime: .seconds(60), capacity: 3)
        let base = Int64(now.timeIntervalSince1970)
        cache.store(try active(exp: base + 10), for: "a", now: now)
        cache.store(try active(exp: base + 5), for: "b", now: now)
        cache.store(try active(exp: base + 30), for: "c", now: now)
        cache.store(try active(exp: base + 40), for: "d", now: now)
        XCTAssertEqual(cache.count, 3)
        XCTAssertNil(cache.result(for: "b", now: now), "the soonest to expire made room")
        for kept in ["a", "c", "d"] { XCTAssertNotNil(cache.result(for: kept, now: now), kept) }
        // Later, with "a" expired: it goes, and nothing live does.
        let later = now.addingTimeInterval(11)
        cache.store(try active(exp: base + 50), for: "e", now: later)
        XCTAssertEqual(cache.count, 3)
        for kept in ["c", "d", "e"] { XCTAssertNotNil(cache.result(for: kept, now: later), kept) }
        // Storing a token again replaces its entry without evicting another.
        cache.store(try active(exp: base + 55, scope: "notes:read notes:write"), for: "e", now: later)
        XCTAssertEqual(cache.result(for: "e", now: later)?.scopes, ["notes:read", "notes:write"])
        XCTAssertEqual(cache.count, 3)
    }

    /// The entries are found by digest: the token's text appears nowhere in the cache.
    func testTheCacheHoldsDigestsNotTokens() throws {
        let cache = IntrospectionCache(lifetime: .seconds(5))
        let token = "secret-token-\(UUID().uuidString)"
        cache.store(try active(), for: token, now: now)
        XCTAssertFalse(String(reflecting: cache.digests).contains(token))
        XCTAssertEqual(cache.digests.map(\.count), [64], "a SHA-256 in hex")
    }
}
