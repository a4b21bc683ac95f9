import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// A checked write (issue 22) and the end of its token's session, at once: the write either
/// happened before the end or is refused. No row appears after the revocation committed, in
/// this process or in another that shares the database.
final class WriteRevocationTests: ServerProcessTestCase {
    /// The interleaving forced: the create has passed its token check and waits (on a lock the
    /// test holds on the user row, which its foreign-key check needs) when the session is
    /// ended. Without the check's share lock on the session, the end would commit at once and
    /// the create after it; with it, the end waits for the create, and sees its row.
    func testAnEndedSessionNeverGainsARowAfterItsEnd() async throws {
        try await withTestApp(.live) { app in
            let login = try await app.client.session("admin")
            let (db, client) = (app.til.db, app.client)
            let userLock = HeldTransaction(on: db, "SELECT 1 FROM users WHERE id = \(login.user.id) FOR UPDATE")
            try await userLock.started()
            let create = Task {
                try await client.send(.post, "/api/acronyms", json: ["short": "RACE", "long": "Raced"], auth: .bearer(login.value))
            }
            try await db.waitUntil(.waitingOnALock("INSERT INTO acronyms"))
            let end = Task {
                try await db.withTransaction { tx in
                    try await tx.execute("UPDATE sessions SET revoked_at = now() WHERE id = \(login.id)")
                    let rows = try await tx.query("SELECT count(*) AS n FROM acronyms WHERE short = 'RACE'")
                    return try rows.first?.decode(column: "n", as: Int.self) ?? -1
                }
            }
            // The end waits for the create; or (without the share lock) it has committed already.
            try await db.waitUntil("""
                \(.waitingOnALock("UPDATE sessions SET revoked_at")) OR EXISTS (
                    SELECT 1 FROM sessions WHERE id = \(login.id) AND revoked_at IS NOT NULL)
                """)
            try await userLock.finish()

            let created = try await create.value
            let seenByTheEnd = try await end.value
            let rows = try await app.number("SELECT count(*) AS n FROM acronyms WHERE short = 'RACE'")
            XCTAssertEqual(created.status.code, 200, "the create passed its check first: \(created.bodyString)")
            XCTAssertEqual(rows, 1)
            XCTAssertEqual(seenByTheEnd, rows, "every row of the ended session was there when its end committed")
            let after = try await app.client.send(.post, "/api/acronyms", json: ["short": "LATE", "long": "Too late"], auth: .bearer(login.value))
            assertInvalidToken(after, "a create after the end")
        }
    }

    /// Creates racing a logout over HTTP: each is answered 200 with its row, or 401 without.
    func testCreatesRacingALogoutAreEachWholeOrRefused() async throws {
        try await withTestApp(.live) { app in
            let login = try await app.client.session("admin")
            let client = app.client
            let codes = try await statusCodes(of: (0..<24).map { index in
                if index == 8 { return { try await client.send(.post, "/api/users/logout", auth: .bearer(login.value)) } }
                return { try await client.send(.post, "/api/acronyms", json: ["short": "R\(index)", "long": "Race"], auth: .bearer(login.value)) }
            })
            XCTAssertTrue(codes.allSatisfy { [200, 204, 401].contains($0) }, "\(codes.sorted())")
            let rows = try await app.number("SELECT count(*) AS n FROM acronyms")
            XCTAssertEqual(rows, codes.filter { $0 == 200 }.count, "a row for each 200, none for a 401: \(codes.sorted())")
            let after = try await client.send(.post, "/api/acronyms", json: ["short": "LATE", "long": "Late"], auth: .bearer(login.value))
            assertInvalidToken(after, "after the logout")
        }
    }

    /// A second `til-server` ends the session; the next write here is refused at once (the
    /// token is checked in the write's statement: no process keeps a verdict).
    func testALogoutOnAnotherProcessStopsTheNextWriteHere() async throws {
        try await withTestApp(.live) { app in
            servers = try await ServerProcess.healthy(1, settings: [:])
            let other = servers[0].client
            let login = try await app.client.session("admin")
            let before = try await app.client.send(.post, "/api/categories", json: ["name": "Before"], auth: .bearer(login.value))
            XCTAssertEqual(before.status.code, 200, before.bodyString)
            let there = try await other.send(.post, "/api/acronyms", json: ["short": "OP", "long": "Other process"], auth: .bearer(login.value))
            XCTAssertEqual(there.status.code, 200, "the token works on the other process too: \(there.bodyString)")

            let logout = try await other.send(.post, "/api/users/logout", auth: .bearer(login.value))
            XCTAssertEqual(logout.status.code, 204, logout.bodyString)
            let after = try await app.client.send(.post, "/api/categories", json: ["name": "After"], auth: .bearer(login.value))
            assertInvalidToken(after, "a write here right after the logout there")
            let names = try await app.til.db.query("SELECT name FROM categories").map { try $0.decode(column: "name", as: String.self) }
            XCTAssertEqual(names, ["Before"])
        }
    }
}
