import AppTesting
import Crypt
import Foundation
import Logging
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Issue 8: the hardening found by review, over the real server and database.
final class HardeningTests: XCTestCase {
    private struct ErrorReply: Decodable { var reason: String }
    private struct NewUser: Encodable { var name = "N", username: String, password = "password" }

    /// One character of 6,001 bytes: `e` with 3,000 combining acute accents.
    private let hugeCharacter = "e" + String(repeating: "\u{301}", count: 3000)

    /// `username` in decomposed form: `e` + combining acute accent for each `é`.
    private func decomposed(_ username: String) -> String { username.decomposedStringWithCanonicalMapping }

    private func createUser(_ user: NewUser, on app: TestApp) async throws -> TestResponse {
        try await app.sendRequest(to: "/api/users", method: .post, body: user, loggedInRequest: true)
    }

    // MARK: Sizes in bytes

    func testOneCharacterOfSixKilobytesIs400() async throws {
        try await withTestApp { app in
            XCTAssertEqual(hugeCharacter.count, 1)
            let acronym = try await app.sendRequest(
                to: "/api/acronyms", method: .post, body: ["short": hugeCharacter, "long": "x"], loggedInRequest: true)
            XCTAssertEqual(acronym.status.code, 400, acronym.bodyString)
            XCTAssertEqual(try acronym.decode(ErrorReply.self).reason, "'short' must be at most 64 bytes.")

            let user = try await createUser(NewUser(name: hugeCharacter, username: "huge"), on: app)
            XCTAssertEqual(user.status.code, 400, user.bodyString)
            XCTAssertEqual(try user.decode(ErrorReply.self).reason, "'name' must be at most 128 bytes.")
            let username = try await createUser(NewUser(username: hugeCharacter), on: app)
            XCTAssertEqual(try username.decode(ErrorReply.self).reason, "'username' must be at most 64 bytes.")
        }
    }

    /// Past validation, a value over PostgreSQL's btree limit (SQLSTATE 54000) is still a 400.
    func testValueOverAnIndexLimitIs400() async throws {
        try await withTestApp { app in
            let acronyms = AcronymRepository(db: app.til.db)
            let owner = try await User.create(on: app)
            // Random, so that compression cannot squeeze it under the ~2.7 KB of a btree entry.
            let incompressible = Data(SecureRandom.bytes(count: 6000)).base64EncodedString()
            try await withSideApp(environment: .production) { app in
                app.middleware.append(DatabaseErrorMiddleware())
                app.get("oversized") { _ in try await acronyms.create(short: incompressible, long: "x", userID: owner.id) }
            } test: { client in
                let response = try await client.send(.get, "/oversized")
                XCTAssertEqual(response.status.code, 400, response.bodyString)
                XCTAssertEqual(try response.decode(ErrorReply.self).reason, "A value is too large.")
            }
        }
    }

    // MARK: Usernames

    func testUsernameWithColonOrControlCharacterIs400() async throws {
        try await withTestApp { app in
            let colon = try await createUser(NewUser(username: "han:solo"), on: app)
            XCTAssertEqual(colon.status.code, 400, colon.bodyString)
            XCTAssertEqual(try colon.decode(ErrorReply.self).reason, "'username' must not contain ':'.")
            for username in ["bell\u{7}", "tab\tbed", "del\u{7F}", "next\u{85}line", "\u{9B}csi"] {
                let response = try await createUser(NewUser(username: username), on: app)
                XCTAssertEqual(response.status.code, 400, "\(username.unicodeScalars.map(\.value)): \(response.bodyString)")
                XCTAssertEqual(try response.decode(ErrorReply.self).reason, "'username' must not contain control characters.")
            }
        }
    }

    func testUsernamesAreUniqueIgnoringCaseAndNormalisation() async throws {
        try await withTestApp(settings: ["COMMON_PASSWORD_CHECK": "off"]) { app in
            for taken in ["Admin", "ADMIN", "aDmIn"] {
                let response = try await createUser(NewUser(username: taken), on: app)
                XCTAssertEqual(response.status.code, 409, "\(taken): \(response.bodyString)")
            }
            let composed = try await createUser(NewUser(username: "Renée"), on: app)
            XCTAssertEqual(composed.status.code, 200, composed.bodyString)
            for lookalike in [decomposed("Renée"), decomposed("renée"), "RENÉE"] {
                let response = try await createUser(NewUser(username: lookalike), on: app)
                XCTAssertEqual(response.status.code, 409, "\(lookalike.unicodeScalars.map(\.value)): \(response.bodyString)")
            }
        }
    }

    func testUsernamesAreStoredInNFCWithTheirCase() async throws {
        try await withTestApp(settings: ["COMMON_PASSWORD_CHECK": "off"]) { app in
            let created = try await createUser(NewUser(username: decomposed("JoséM")), on: app)
            let user = try created.decode(User.Public.self)
            XCTAssertEqual(Array(user.username.unicodeScalars), Array("JoséM".precomposedStringWithCanonicalMapping.unicodeScalars))
            let stored = try await app.getResponse(to: "/api/users/\(user.id)", decodeTo: User.Public.self)
            XCTAssertEqual(Array(stored.username.unicodeScalars), Array(user.username.unicodeScalars))
        }
    }

    func testLoginFindsTheUserWhateverCaseOrFormTheClientSends() async throws {
        try await withTestApp { app in
            let user = try await User.create(username: "Zoë", on: app)
            for username in ["Zoë", "zoë", "ZOË", decomposed("zoë"), decomposed("ZOË")] {
                let token = try await app.client.session(username)
                XCTAssertEqual(token.user.id, user.id, username)
            }
            let admin = try await app.client.session("ADMIN")
            let stored = try await UserRepository(db: app.til.db).find(username: "admin")
            XCTAssertEqual(admin.user.id, stored?.id)
            let zoe = try await app.client.login("zoe")  // no accent: another name
            XCTAssertEqual(zoe.status.code, 401, "'zoe' logged in as 'Zoë'")
        }
    }

    func testLoginLookupUsesTheCaseInsensitiveIndex() async throws {
        try await withTestApp { app in
            let plan = try await app.til.db.withTransaction { tx in
                _ = try await tx.execute("SET LOCAL enable_seqscan = off")
                return try await tx.query("""
                    EXPLAIN SELECT id FROM users WHERE lower(username) = lower(\(UsernameRules.normalized("ADMIN")))
                    """).map { try $0.decode(column: "QUERY PLAN", as: String.self) }.joined(separator: "\n")
            }
            XCTAssertTrue(plan.contains("users_username_lower"), plan)
        }
    }

    /// The new migration applies over a database made before it: existing usernames become
    /// NFC; a case-only duplicate stops it (recorded nowhere) until an operator resolves it.
    func testUsernameMigrationAppliesToAnExistingDatabase() async throws {
        try await withTestApp { app in
            TestDatabase.schemaWillChange()  // the next test migrates afresh, whatever happens here
            let migrator = app.til.migrator
            let new = TILMigrations.uniqueUsernamesIgnoringCase.name
            try await migrator.revertAll()
            let before = Migrator(
                client: app.til.db, migrations: migrator.migrations.filter { $0.name != new }, logger: .quiet())
            try await before.migrate()
            func insert(_ username: String) async throws {
                _ = try await app.til.db.execute("""
                    INSERT INTO users (id, name, username, password_hash) VALUES (\(UUID()), \("N"), \(username), \("x"))
                    """)
            }
            try await insert(decomposed("Chloé"))
            try await insert("Bob")
            try await insert("bob")

            do {
                try await migrator.migrate()
                XCTFail("the unique index was built over 'Bob' and 'bob'")
            } catch let error as PostgresError {
                XCTAssertEqual(error.sqlState, .uniqueViolation)
            }
            let applied = try await migrator.appliedMigrations()
            XCTAssertFalse(applied.contains(new))

            _ = try await app.til.db.execute("DELETE FROM users WHERE username = \("bob")")
            let resolved = try await migrator.migrate()
            XCTAssertEqual(resolved, [new])
            let chloe = try await UserRepository(db: app.til.db).find(username: "CHLOÉ")
            XCTAssertEqual(
                chloe.map { Array($0.username.unicodeScalars) }, Array("Chloé".precomposedStringWithCanonicalMapping.unicodeScalars))
            let reverted = try await migrator.revertLastBatch()
            XCTAssertEqual(reverted, [new])
            let reapplied = try await migrator.migrate()
            XCTAssertEqual(reapplied, [new])
        }
    }

    // MARK: Errors in production

    /// With no `ENVIRONMENT`, a 500 says nothing of PostgreSQL; development would say it all.
    func testProductionHidesInternalsOf500() async throws {
        try await withTestApp { app in
            let db = app.til.db
            let failing: @Sendable (Request) async throws -> String = { _ in
                _ = try await db.query("SELECT secret_column FROM no_such_table")
                return "unreachable"
            }
            try await withSideApp(environment: .production) { app in
                app.middleware.append(DatabaseErrorMiddleware())
                app.get("fail", use: failing)
            } test: { client in
                let response = try await client.send(.get, "/fail")
                XCTAssertEqual(response.status.code, 500)
                XCTAssertEqual(try response.decode(ErrorReply.self).reason, "Something went wrong.")
                for leak in ["PostgreSQL", "no_such_table", "secret_column", "42P01"] {
                    XCTAssertFalse(response.bodyString.contains(leak), response.bodyString)
                }
            }
            try await withSideApp(environment: .development) { app in
                app.get("fail", use: failing)
            } test: { client in
                let response = try await client.send(.get, "/fail")
                XCTAssertEqual(response.status.code, 500)
                XCTAssertTrue(response.bodyString.contains("no_such_table"), response.bodyString)
            }
        }
    }

    /// A second application beside the TIL one, with routes of the test's own, on loopback.
    private func withSideApp(
        environment: Environment, configure: (Application) -> Void, test: (TestClient) async throws -> Void
    ) async throws {
        let logger = Logger.quiet("til-test")
        let side = Application(environment: environment, logger: logger)
        configure(side)
        try await side.test(.inProcess, test)
    }
}
