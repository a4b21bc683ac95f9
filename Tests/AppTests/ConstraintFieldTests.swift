import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Every 409 and every 404 on a reference names the field (`ConstraintFields`), and every
/// unique or foreign-key constraint of the live schema is either mapped to a field or guards
/// only values the server draws itself.
final class ConstraintFieldTests: XCTestCase {
    func testTakenUsernameNamesTheField() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "timc", on: app)
            for taken in ["timc", "TimC"] {
                let response = try await app.sendRequest(
                    to: "/api/users", method: .post, body: ["name": "Tim", "username": taken, "password": "s3cret-pass"],
                    loggedInRequest: true)
                XCTAssertEqual(response.status.code, 409, taken)
                XCTAssertEqual(try response.decode(ErrorBody.self).reason, "'username' is already taken.", taken)
            }
        }
    }

    func testLinkingUnknownItemsNamesTheReference() async throws {
        try await withTestApp { app in
            let acronym = try await Acronym.create(on: app)
            let category = try await App.Category.create(on: app)
            let cases = [
                ("/api/acronyms/\(UUID())/categories/\(category.id)", "'acronymID' is not the id of any acronym."),
                ("/api/acronyms/\(acronym.id)/categories/\(UUID())", "'categoryID' is not the id of any category."),
            ]
            for (path, reason) in cases {
                for method in [HTTPMethod.post, .delete] {
                    let response = try await app.sendRequest(to: path, method: method, loggedInRequest: true)
                    XCTAssertEqual(response.status.code, 404, "\(method) \(path)")
                    XCTAssertEqual(try response.decode(ErrorBody.self).reason, reason, "\(method) \(path)")
                }
            }
        }
    }

    /// The owner of a new acronym vanishing mid-request: PostgreSQL's own violation, mapped.
    func testRealViolationsMapToTheirFields() async throws {
        try await withTestApp { app in
            let acronyms = AcronymRepository(db: app.til.db)
            let orphan = await failure { _ = try await acronyms.create(short: "OMG", long: "Oh My God", userID: UUID()) }
            XCTAssertEqual(orphan?.sqlState, .foreignKeyViolation)
            let answer = try XCTUnwrap(ConstraintFields.answer(foreignKeyViolationOf: orphan?.constraint))
            XCTAssertEqual(answer.status.code, 404)
            XCTAssertEqual(answer.reason, "'userID' is not the id of any user.")

            let users = UserRepository(db: app.til.db)
            let duplicate = await failure { _ = try await users.create(name: "A", username: "ADMIN", passwordHash: "x") }
            XCTAssertEqual(duplicate?.sqlState, .uniqueViolation)
            XCTAssertEqual(ConstraintFields.answer(uniqueViolationOf: duplicate?.constraint)?.reason, "'username' is already taken.")
        }
    }

    /// A constraint added without a field here would answer 500: this names it first.
    func testEveryConstraintOfTheSchemaIsMappedOrServerDrawn() async throws {
        try await withTestApp { app in
            let rows = try await app.til.db.query(Self.constraintsQuery)
            XCTAssertFalse(rows.isEmpty)
            var foreignKeys: Set<String> = []
            for row in rows {
                let name = try row.decode(column: "name", as: String.self)
                let kind = try row.decode(column: "kind", as: String.self)
                let columns = Set(try row.decode(column: "columns", as: String.self).split(separator: ",").map(String.init))
                if kind == "f" {
                    foreignKeys.insert(name)
                    XCTAssertNotNil(ConstraintFields.references[name], "foreign key \(name) names no field")
                } else if ConstraintFields.unique[name] == nil {
                    XCTAssertTrue(Self.serverDrawn(name, columns), "unique \(name) (\(columns.sorted())) names no field")
                }
            }
            XCTAssertEqual(foreignKeys, Set(ConstraintFields.references.keys), "every mapped foreign key exists")
            let uniqueNames = Set(try rows.map { try $0.decode(column: "name", as: String.self) })
            XCTAssertTrue(Set(ConstraintFields.unique.keys).isSubset(of: uniqueNames), "every mapped unique constraint exists")
        }
    }

    /// Random ids, identity `seq` columns and token, cookie and code digests come from the
    /// server; linking an acronym to a category twice is `ON CONFLICT DO NOTHING`, and a login
    /// from a known address and a consent given again are `ON CONFLICT DO UPDATE`; a signing key's
    /// kid is the thumbprint of a key the server generated. A device flow's user code is drawn by
    /// the server too (again on a collision). The cookie digest's uniqueness is a partial unique
    /// index (`NullSkippingIndexes`), listed by name. A user has one TOTP row, written `ON CONFLICT DO UPDATE`.
    private static func serverDrawn(_ name: String, _ columns: Set<String>) -> Bool {
        columns.isSubset(of: ["id", "seq", "digest", "browser_digest"])
            || ["acronym_category_pivot_pkey", "login_known_origins_pkey", "oauth_grants_pkey", "signing_keys_pkey",
                "oauth_device_codes_pending_user_code", "sessions_browser_digest_key", "totp_credentials_pkey"].contains(name)
    }

    /// Unique, primary-key and foreign-key constraints, and unique indexes that back none
    /// (`users_username_lower`), of every table but the migrator's own.
    private static let constraintsQuery: PostgresQuery = """
        SELECT c.conname::text AS name, c.contype::text AS kind,
               array_to_string(ARRAY(SELECT a.attname FROM unnest(c.conkey) k
                   JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k), ',') AS columns
        FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
        WHERE n.nspname = current_schema() AND c.contype IN ('u', 'p', 'f') AND t.relname <> '_migrations'
        UNION ALL
        SELECT i.relname::text, 'i', pg_get_indexdef(i.oid)
        FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
        JOIN pg_namespace n ON n.oid = t.relnamespace
        WHERE n.nspname = current_schema() AND x.indisunique AND t.relname <> '_migrations'
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
        """

    private func failure(_ body: () async throws -> Void) async -> PostgresError? {
        do {
            try await body()
            XCTFail("expected a constraint violation")
            return nil
        } catch {
            XCTAssertTrue(error is PostgresError, "\(error)")
            return error as? PostgresError
        }
    }
}
