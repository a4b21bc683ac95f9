import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Issue 22: a bearer write checks its token in the write's own statement, so it costs one
/// database round trip (`til_db_statements_per_lease`); what a refused request is answered,
/// and in which order, does not change.
final class CheckedWriteTests: XCTestCase {
    /// Live, so a keep-alive client's requests run on one loop and reuse one pooled connection:
    /// after the first request of each kind has prepared its statement there, each costs one.
    func testEachBearerWriteIsOneRoundTrip() async throws {
        try await withTestApp(.live) { app in
            let token = try await app.client.session("admin").value
            let category = try await App.Category.create(on: app)
            for round in ["preparing", "prepared"] {
                let (created, creating) = try await Self.roundTrips(on: app) {
                    try await app.client.send(.post, "/api/acronyms", json: ["short": "RT", "long": "Round trip"], auth: .bearer(token))
                }
                XCTAssertEqual(created.status.code, 200, created.bodyString)
                let id = try created.decode(Acronym.self).id
                let writes: [(HTTPMethod, String, [String: String]?)] = [
                    (.post, "/api/categories", ["name": "Trips \(round)"]),
                    (.put, "/api/acronyms/\(id)", ["short": "RT", "long": "Round trips"]),
                    (.post, "/api/acronyms/\(id)/categories/\(category.id)", nil),
                    (.delete, "/api/acronyms/\(id)/categories/\(category.id)", nil),
                    (.delete, "/api/acronyms/\(id)", nil),
                ]
                var counts = ["POST /api/acronyms": creating]
                for (method, path, json) in writes {
                    let (response, trips) = try await Self.roundTrips(on: app) {
                        if let json { return try await app.client.send(method, path, json: json, auth: .bearer(token)) }
                        return try await app.client.send(method, path, auth: .bearer(token))
                    }
                    XCTAssertLessThan(response.status.code, 300, "\(method) \(path): \(response.bodyString)")
                    counts["\(method) \(path.split(separator: "/").prefix(2).joined(separator: "/"))…", default: 0] += trips
                }
                guard round == "prepared" else { continue }
                XCTAssertEqual(creating, 1, "a bearer create: the token check and the insert in one statement")
                XCTAssertEqual(counts.values.reduce(0, +), 6, "one round trip per write: \(counts)")
            }
        }
    }

    /// A refused token costs the write (which writes nothing) and the check that says why.
    func testARefusedTokenIsAnsweredAsBeforeAndWritesNothing() async throws {
        try await withTestApp(.live) { app in
            let login = try await app.client.session("admin")
            for round in ["preparing", "prepared"] {
                let (unknown, trips) = try await Self.roundTrips(on: app) {
                    try await app.client.send(.post, "/api/acronyms", json: ["short": "NO", "long": "Nope"], auth: .bearer("not-a-token"))
                }
                assertInvalidToken(unknown)
                XCTAssertEqual(try unknown.decode(ErrorAnswer.self).reason, "The access token is unknown or revoked.")
                if round == "prepared" { XCTAssertEqual(trips, 2, "the write, then the check saying why") }
            }

            try await app.til.db.execute("UPDATE tokens SET expires_at = now() - interval '1 second' WHERE session_id = \(login.id)")
            let expired = try await app.client.send(.post, "/api/categories", json: ["name": "Late"], auth: .bearer(login.value))
            assertInvalidToken(expired)
            XCTAssertEqual(try expired.decode(ErrorAnswer.self).reason, "The access token expired.")
            let rows = try await app.number("SELECT (SELECT count(*) FROM acronyms) + (SELECT count(*) FROM categories) AS n")
            XCTAssertEqual(rows, 0, "refused writes change nothing")
        }
    }

    /// A bad token wins over a bad request, as when the token was checked before the handler
    /// ran: the handler's 400 or 404 is answered only to a token that passes.
    func testABadTokenWinsOverABadRequest() async throws {
        try await withTestApp(settings: ["ACRONYM_EDIT_POLICY": "owner"]) { app in
            let acronym = try await Acronym.create(on: app)
            let good = try await app.client.session("admin").value
            let scopeless = try await app.client.session("admin", scope: "account").value
            let expired = try await app.client.session("admin")
            try await app.til.db.execute("UPDATE tokens SET expires_at = now() - interval '1 second' WHERE session_id = \(expired.id)")
            let badBody = Array(#"{"short": 1"#.utf8)
            let requests: [(HTTPMethod, String, [UInt8])] = [
                (.post, "/api/acronyms", badBody), (.post, "/api/categories", Array(#"{"name": ""}"#.utf8)),
                (.put, "/api/acronyms/\(acronym.id)", badBody), (.put, "/api/acronyms/not-a-uuid", badBody),
                (.delete, "/api/acronyms/\(UUID())", []), (.post, "/api/acronyms/\(UUID())/categories/\(UUID())", []),
            ]
            let json: HTTPHeaders = ["Content-Type": "application/json"]
            for (method, path, body) in requests {
                let unknown = try await app.client.send(method, path, headers: json, body: body, auth: .bearer("not-a-token"))
                assertInvalidToken(unknown, "\(method) \(path) with an unknown token")
                let late = try await app.client.send(method, path, headers: json, body: body, auth: .bearer(expired.value))
                XCTAssertEqual(try late.decode(ErrorAnswer.self).reason, "The access token expired.", "\(method) \(path)")
                let lacking = try await app.client.send(method, path, headers: json, body: body, auth: .bearer(scopeless))
                XCTAssertEqual(lacking.status.code, 403, "\(method) \(path) without the scope: \(lacking.bodyString)")
                let missing = try await app.client.send(method, path, headers: json, body: body)
                XCTAssertEqual(missing.headers["WWW-Authenticate"], plainBearerChallenge, "\(method) \(path) without a token")
                let answered = try await app.client.send(method, path, headers: json, body: body, auth: .bearer(good))
                XCTAssertTrue([400, 404].contains(answered.status.code), "\(method) \(path) with a good token: \(answered.bodyString)")
            }
        }
    }

    /// A write on a session due for its `last_used_at` touch, while another transaction holds
    /// the session share-locked (as every other write on it does): the write must not wait to
    /// update the row. Two writes that both held the share lock and both waited for the other
    /// to let go would deadlock (one of them a 500, a second later). The touch is skipped while
    /// others hold the session; a write alone on it does it.
    func testAWriteNeverWaitsToTouchASessionOthersHold() async throws {
        try await withTestApp(.live) { app in
            let (db, client) = (app.til.db, app.client)
            let login = try await client.session("admin")
            let stale: PostgresQuery = "UPDATE sessions SET last_used_at = now() - interval '2 minutes' WHERE id = \(login.id)"
            try await db.execute(stale)
            let otherWrite = HeldTransaction(on: db, "SELECT 1 FROM sessions WHERE id = \(login.id) FOR SHARE")
            try await otherWrite.started()
            let create = Task {
                try await client.send(.post, "/api/acronyms", json: ["short": "TOUCH", "long": "Touch"], auth: .bearer(login.value))
            }
            try await db.waitUntil("\(.waitingOnALock("INSERT INTO acronyms")) OR EXISTS (SELECT 1 FROM acronyms)")
            let createdWhileHeld = try await app.number("SELECT count(*) AS n FROM acronyms")
            try await otherWrite.finish()
            let created = try await create.value
            XCTAssertEqual(created.status.code, 200, created.bodyString)
            XCTAssertEqual(createdWhileHeld, 1, "the create did not wait for the other holder of its session")

            let alone = try await client.send(.post, "/api/categories", json: ["name": "Alone"], auth: .bearer(login.value))
            XCTAssertEqual(alone.status.code, 200, alone.bodyString)
            let recent = try await app.number("""
                SELECT count(*) AS n FROM sessions WHERE id = \(login.id) AND last_used_at > now() - interval '1 minute'
                """)
            XCTAssertEqual(recent, 1, "a write alone on its session touches it")
        }
    }

    /// The statements `request` cost, as `til_db_statements_per_lease` counts them (a request here takes one lease).
    static func roundTrips(on app: TestApp, _ request: () async throws -> TestResponse) async throws -> (TestResponse, Int) {
        let family = LeaseHistograms.countFamily + "_sum"
        let before = PrometheusText(try await app.client.send(.get, "/metrics").bodyString).value(family)
        let response = try await request()
        let after = PrometheusText(try await app.client.send(.get, "/metrics").bodyString).value(family)
        return (response, Int(after - before))
    }
}
