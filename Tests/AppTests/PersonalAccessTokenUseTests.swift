import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// `lastUsedAt` and `lastUsedFrom`: recorded by the token check itself, at the first use and
/// then at most once a minute (never a write per request), on reads and on checked writes
/// alike; an ordinary login's check records no address.
final class PersonalAccessTokenUseTests: XCTestCase {
    func testTheFirstUseIsRecordedWithItsAddressThenAtMostOnceAMinute() async throws {
        // Live: the address is the socket's peer, which only a socket gives.
        try await withTestApp(.live) { app in
            let user = try await User.create(on: app)
            let login = try await app.client.session(user.username)
            let created = try await app.client.createPAT(bearer: login.value)
            let contract = try await OpenAPIContract.served(by: app)
            contract.check(created, .post, "/api/users/me/tokens")
            let pat = try created.decode(CreatedPAT.self)
            let unused = try await app.client.send(.get, "/api/users/me/tokens", auth: .bearer(login.value))
            contract.check(unused, .get, "/api/users/me/tokens")
            XCTAssertFalse(unused.bodyString.contains("lastUsed"), "absent before the first use: \(unused.bodyString)")
            let first = try await app.client.meStatus(pat.token)
            XCTAssertEqual(first, 200)
            let usedList = try await app.client.send(.get, "/api/users/me/tokens", auth: .bearer(login.value))
            contract.check(usedList, .get, "/api/users/me/tokens")
            let used = try XCTUnwrap(try usedList.decode([ListedPAT].self).first)
            XCTAssertEqual(used.lastUsedFrom, "127.0.0.1")
            let recorded = try XCTUnwrap(used.lastUsedAt)
            XCTAssertGreaterThanOrEqual(recorded, pat.createdAt)

            // Within the minute: the check writes nothing.
            try await app.til.db.execute("UPDATE sessions SET last_used_from = 'marker' WHERE id = \(pat.id)")
            let again = try await app.client.meStatus(pat.token)
            XCTAssertEqual(again, 200)
            let unchanged = try await lastUse(of: pat.id, on: app)
            XCTAssertEqual(unchanged.from, "marker", "a second use within the minute wrote the row")

            // A minute on: the next use, a checked write this time, records itself.
            try await app.til.db.execute("UPDATE sessions SET last_used_at = now() - interval '2 minutes' WHERE id = \(pat.id)")
            let write = try await app.client.send(.post, "/api/acronyms", json: ["short": "LU", "long": "Last use"], auth: .bearer(pat.token))
            XCTAssertEqual(write.status.code, 200, write.bodyString)
            let renewed = try await lastUse(of: pat.id, on: app)
            XCTAssertEqual(renewed.from, "127.0.0.1")
            XCTAssertLessThan(renewed.secondsAgo, 30)
        }
    }

    /// A checked write is the first use of a token: recorded from it alone.
    func testACheckedWriteAloneRecordsTheFirstUse() async throws {
        try await withTestApp(.live) { app in
            let user = try await User.create(on: app)
            let login = try await app.client.session(user.username)
            let pat = try await app.client.pat(bearer: login.value)
            let write = try await app.client.send(.post, "/api/acronyms", json: ["short": "CW", "long": "Checked write"], auth: .bearer(pat.token))
            XCTAssertEqual(write.status.code, 200, write.bodyString)
            let listed = try await app.client.listedPATs(bearer: login.value)
            XCTAssertEqual(listed.first?.lastUsedFrom, "127.0.0.1")
            XCTAssertNotNil(listed.first?.lastUsedAt)
        }
    }

    /// An ordinary bearer token's check is the statement it always was: no address recorded.
    func testALoginsUseRecordsNoAddress() async throws {
        try await withTestApp(.live) { app in
            let user = try await User.create(on: app)
            let login = try await app.client.session(user.username)
            try await app.til.db.execute("UPDATE sessions SET last_used_at = now() - interval '2 minutes' WHERE id = \(login.id)")
            let me = try await app.client.meStatus(login.value)
            XCTAssertEqual(me, 200)
            let use = try await lastUse(of: login.id, on: app)
            XCTAssertNil(use.from)
            XCTAssertLessThan(use.secondsAgo, 30, "the use itself is recorded, as before")
        }
    }

    private func lastUse(of session: UUID, on app: TestApp) async throws -> (from: String?, secondsAgo: Double) {
        let rows = try await app.til.db.query("""
            SELECT last_used_from, extract(epoch FROM now() - last_used_at)::float8 AS ago FROM sessions WHERE id = \(session)
            """)
        let row = try XCTUnwrap(rows.first)
        return (try row.decode(column: "last_used_from", as: String?.self), try row.decode(column: "ago", as: Double.self))
    }
}
