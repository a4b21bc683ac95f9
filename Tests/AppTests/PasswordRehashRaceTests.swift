import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The rehash at login (issue 17) when something else touches the same hash: a password set
/// meanwhile, other logins of the same account at once, and a second `til-server` process
/// configured with another `BCRYPT_COST` over the same database (a rolling upgrade).
final class PasswordRehashRaceTests: ServerProcessTestCase {
    /// The rehash writes only over the hash it verified. A login that proved the old password
    /// while an operator set a new one must not bring the old one back.
    func testARehashNeverOverwritesAPasswordSetMeanwhile() async throws {
        try await withTestApp(settings: ["BCRYPT_COST": "5"]) { app in
            let stale = try await User.create(username: "vera", on: app)  // as the login read it: "password" at cost 4
            try await app.til.administration.setPassword("set-meanwhile", of: "vera")
            let rehash = PasswordRehash(hasher: app.til.hasher, db: app.til.db, logger: .quiet("rehash"))
            await rehash.upgrade(stale, password: "password")

            let stored = try await app.storedPasswordHash(of: stale.id)
            XCTAssertTrue(try Bcrypt.verify("set-meanwhile", created: stored), "the password set meanwhile stays")
            XCTAssertFalse(try Bcrypt.verify("password", created: stored))
            let old = try await app.client.login("vera", "password")
            XCTAssertEqual(old.status.code, 401)
        }
    }

    /// Six logins of one account at once after the cost rose: all succeed, and the one hash
    /// left is at the new cost and still the password.
    func testConcurrentLoginsAllSucceedAndLeaveOneHashAtTheNewCost() async throws {
        try await withTestApp(settings: ["BCRYPT_COST": "6"]) { app in
            let user = try await User.create(on: app)
            let client = app.client, username = user.username
            let codes = try await statusCodes(of: (0..<6).map { _ in { try await client.login(username, "password") } })
            XCTAssertEqual(codes, Array(repeating: 200, count: 6))
            let stored = try await app.storedPasswordHash(of: user.id)
            XCTAssertEqual(PasswordRehash.cost(of: stored), 6, stored)
            XCTAssertTrue(try Bcrypt.verify("password", created: stored))
            let again = try await client.login(username, "password")
            XCTAssertEqual(again.status.code, 200)
        }
    }

    /// During a rolling upgrade one process has the new, higher cost and one the old: a login
    /// through the new one strengthens the hash, and logins through the old one keep it.
    func testAProcessWithALowerCostKeepsTheHashAHigherCostProcessMade() async throws {
        try await withTestApp { app in  // this process: BCRYPT_COST 4
            let user = try await User.create(on: app)
            servers = try await ServerProcess.healthy(1, settings: ["BCRYPT_COST": "6"])
            let first = try await servers[0].client.login(user.username, "password")
            XCTAssertEqual(first.status.code, 200, first.bodyString)
            let strengthened = try await app.storedPasswordHash(of: user.id)
            XCTAssertEqual(PasswordRehash.cost(of: strengthened), 6, strengthened)

            let old = try await app.client.login(user.username, "password")
            XCTAssertEqual(old.status.code, 200, old.bodyString)
            let kept = try await app.storedPasswordHash(of: user.id)
            XCTAssertEqual(kept, strengthened, "the process at cost 4 did not weaken it")
        }
    }

    /// A stored hash whose cost cannot be read is left alone (and still checked as bcrypt).
    func testCostIsReadOnlyFromAWellFormedHash() {
        XCTAssertEqual(PasswordRehash.cost(of: "$2b$04$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"), 4)
        XCTAssertEqual(PasswordRehash.cost(of: "$2y$12$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"), 12)
        for malformed in ["", "$", "$2b$", "$2b$x4$abc", "2b$04$abc", "$1$04$abc", "$argon2id$v=19$m=65536", "$2b"] {
            XCTAssertNil(PasswordRehash.cost(of: malformed), malformed)
        }
    }
}
