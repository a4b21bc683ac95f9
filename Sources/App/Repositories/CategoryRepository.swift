import Crypt
import Foundation
import Postgres

/// Categories and their links to acronyms. In the app `db` is a `RoutedDatabase`: anonymous
/// reads may be answered by a replica, writes always by the primary.
struct CategoryRepository: Sendable {
    let db: any PostgresQueryable

    func all(page: PageRequest? = nil) async throws -> Page<Category> {
        try Page(rows: try await db.query("""
            SELECT id, name, seq AS page_seq FROM categories
            WHERE \(rowsAfter: page, seq: "seq") ORDER BY seq\(limitOf: page)
            """), request: page, item: Self.category)
    }

    private static func category(_ row: PostgresRow) throws -> Category {
        Category(id: try row.decode(column: "id", as: UUID.self), name: try row.decode(column: "name", as: String.self))
    }

    func find(_ id: UUID) async throws -> Category? {
        try await db.query("SELECT id, name FROM categories WHERE id = \(id)").first.map(Self.category)
    }

    /// For seeding and tests: the app creates categories as their caller (`create(name:by:)`).
    func create(name: String) async throws -> Category {
        let category = Category(id: SecureRandom.uuid(), name: name)
        try await db.execute("INSERT INTO categories (id, name) VALUES (\(category.id), \(name))")
        return category
    }

    /// In the order the categories were linked to the acronym.
    func of(acronym acronymID: UUID, page: PageRequest? = nil) async throws -> Page<Category> {
        try Page(rows: try await db.query("""
            SELECT c.id, c.name, p.seq AS page_seq FROM categories c
            JOIN acronym_category_pivot p ON p.category_id = c.id
            WHERE p.acronym_id = \(acronymID) AND \(rowsAfter: page, seq: "p.seq") ORDER BY p.seq\(limitOf: page)
            """), request: page, item: Self.category)
    }

    /// Links an acronym to a category; linking twice keeps one link. A missing acronym or
    /// category is a foreign-key violation (→ 404).
    func attach(acronym acronymID: UUID, category categoryID: UUID) async throws {
        try await db.execute("""
            INSERT INTO acronym_category_pivot (acronym_id, category_id) VALUES (\(acronymID), \(categoryID))
            ON CONFLICT DO NOTHING
            """)
    }

    // Writes as a bearer: each is one statement with the token check (`Caller.write`); a
    // `condition` may read the caller's id as `caller.user_id`.

    /// A new category, created by the caller.
    func create(name: String, by caller: Caller) async throws -> Category {
        let category = Category(id: SecureRandom.uuid(), name: name)
        guard try await caller.write("INSERT INTO categories (id, name) SELECT \(category.id), \(name) FROM caller RETURNING id") != nil else {
            throw PostgresError(.server, message: "an INSERT ... SELECT FROM a caller returned no row")
        }
        return category
    }

    /// Links as the caller, if `condition` holds; false when nothing was linked: the link
    /// existed, or the condition failed. A missing acronym or category is a foreign-key
    /// violation (→ 404) when the condition holds.
    func attach(acronym acronymID: UUID, category categoryID: UUID, by caller: Caller, if condition: PostgresQuery) async throws -> Bool {
        try await caller.write("""
            INSERT INTO acronym_category_pivot (acronym_id, category_id) SELECT \(acronymID), \(categoryID) FROM caller
            WHERE \(condition) ON CONFLICT DO NOTHING RETURNING acronym_id
            """) != nil
    }

    /// Unlinks as the caller, if `condition` holds; false when no link was removed.
    func detach(acronym acronymID: UUID, category categoryID: UUID, by caller: Caller, if condition: PostgresQuery) async throws -> Bool {
        try await caller.write("""
            DELETE FROM acronym_category_pivot p USING caller
            WHERE p.acronym_id = \(acronymID) AND p.category_id = \(categoryID) AND \(condition) RETURNING p.acronym_id
            """) != nil
    }

    /// After an unlink that removed nothing: the reference that points nowhere, as `attach`
    /// would answer it (`ConstraintFields`), or nil when both exist.
    func missingReference(acronym acronymID: UUID, category categoryID: UUID) async throws -> ConstraintFields.Reference? {
        let rows = try await db.query("""
            SELECT EXISTS (SELECT 1 FROM acronyms WHERE id = \(acronymID)) AS acronym,
                   EXISTS (SELECT 1 FROM categories WHERE id = \(categoryID)) AS category
            """)
        guard let row = rows.first else { throw PostgresError(.server, message: "a SELECT without FROM answered no row") }
        if try !row.decode(column: "acronym", as: Bool.self) { return .acronym }
        return try row.decode(column: "category", as: Bool.self) ? nil : .category
    }
}
