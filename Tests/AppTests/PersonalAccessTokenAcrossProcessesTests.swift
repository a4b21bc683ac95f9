import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Personal access tokens behind a balancer: two `til-server` processes over one database.
/// A token made on A works on B; revoked on either, it is refused on the other at once (the
/// check reads the session row every time; nothing is cached); its last use on B is what A
/// lists.
final class PersonalAccessTokenAcrossProcessesTests: ServerProcessTestCase {
    func testMadeOnAUsedAndRevokedOnBRefusedOnA() async throws {
        try await withTestApp { app in
            servers = try await ServerProcess.healthy(2, settings: [:])
            let (a, b) = (servers[0].client, servers[1].client)
            let owner = try await User.create(username: "Ōsaka-\(UUID().uuidString.prefix(6).lowercased())", on: app)
            let loginOnA = try await a.session(owner.username)
            let pat = try await a.pat("two processes", scopes: ["acronyms:write"], bearer: loginOnA.value)

            let writeOnB = try await b.send(.post, "/api/acronyms", json: ["short": "B", "long": "On B"], auth: .bearer(pat.token))
            XCTAssertEqual(writeOnB.status.code, 200, writeOnB.bodyString)
            let listedOnA = try await a.listedPATs(bearer: loginOnA.value)
            XCTAssertEqual(listedOnA.first?.lastUsedFrom, "127.0.0.1", "B's use, listed by A")
            XCTAssertNotNil(listedOnA.first?.lastUsedAt)

            let loginOnB = try await b.session(owner.username)
            let revokedOnB = try await b.revokePAT(pat.id, bearer: loginOnB.value)
            XCTAssertEqual(revokedOnB, 204)
            let readOnA = try await a.send(.get, "/api/users/me", auth: .bearer(pat.token))
            assertInvalidToken(readOnA, "revoked on B, read on A")
            let writeOnA = try await a.send(.post, "/api/acronyms", json: ["short": "A", "long": "On A"], auth: .bearer(pat.token))
            assertInvalidToken(writeOnA, "revoked on B, checked write on A")
            let again = try await a.revokePAT(pat.id, bearer: loginOnA.value)
            XCTAssertEqual(again, 404, "already revoked, seen from A")
        }
    }

    func testRevokedOnARefusedOnBAtOnce() async throws {
        try await withTestApp { app in
            servers = try await ServerProcess.healthy(2, settings: [:])
            let (a, b) = (servers[0].client, servers[1].client)
            let owner = try await User.create(on: app)
            let login = try await a.session(owner.username)
            for trial in 1...3 {
                let pat = try await b.pat("trial \(trial)", bearer: login.value)
                let before = try await b.meStatus(pat.token)
                XCTAssertEqual(before, 200, "trial \(trial)")
                let revoked = try await a.revokePAT(pat.id, bearer: login.value)
                XCTAssertEqual(revoked, 204, "trial \(trial)")
                let after = try await b.meStatus(pat.token)
                XCTAssertEqual(after, 401, "trial \(trial): B still took a token A revoked")
            }
            // A token from one process refuses the other's session routes alike.
            let pat = try await a.pat("no login", bearer: login.value)
            let listOnB = try await b.send(.get, "/api/users/me/tokens", auth: .bearer(pat.token))
            assertNeedsLogin(listOnB, "B")
        }
    }
}
