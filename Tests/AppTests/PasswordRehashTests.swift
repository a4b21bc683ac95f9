import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Issue 17 ("Also"): rehash a password at login when `BCRYPT_COST` has risen. A login that
/// proves the password stores a new hash at the configured cost; a lower configured cost never
/// weakens a stored hash, and a failed login changes nothing.
final class PasswordRehashTests: XCTestCase {
    func testLoginRehashesAPasswordWhenBcryptCostHasRisen() async throws {
        try await withTestApp(settings: ["BCRYPT_COST": "5"]) { app in
            let user = try await User.create(on: app)  // hashed at cost 4
            let original = try await storedHash(of: user.id, in: app)
            XCTAssertTrue(original.hasPrefix("$2b$04$"), original)

            let failed = try await app.client.login(user.username, "wrong-password")
            XCTAssertEqual(failed.status.code, 401)
            let afterFailure = try await storedHash(of: user.id, in: app)
            XCTAssertEqual(afterFailure, original, "a failed login rehashes nothing")

            _ = try await app.client.session(user.username)
            let rehashed = try await storedHash(of: user.id, in: app)
            XCTAssertTrue(rehashed.hasPrefix("$2b$05$"), rehashed)
            XCTAssertTrue(try Bcrypt.verify("password", created: rehashed))

            _ = try await app.client.session(user.username)
            let again = try await storedHash(of: user.id, in: app)
            XCTAssertEqual(again, rehashed, "a hash at the configured cost is kept")
        }
    }

    func testALowerConfiguredCostKeepsAStrongerHash() async throws {
        try await withTestApp(settings: ["BCRYPT_COST": "4"]) { app in
            let strong = try Bcrypt.hash("password", cost: 6)
            let user = try await UserRepository(db: app.til.db).create(name: "Strong", username: "strong", passwordHash: strong)
            _ = try await app.client.session(user.username)
            let stored = try await storedHash(of: user.id, in: app)
            XCTAssertEqual(stored, strong)
        }
    }

    private func storedHash(of id: UUID, in app: TestApp) async throws -> String {
        let rows = try await app.til.db.query("SELECT password_hash FROM users WHERE id = \(id)")
        return try XCTUnwrap(rows.first).decode(column: "password_hash", as: String.self)
    }
}
