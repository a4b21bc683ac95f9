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

    func create(name: String) async throws -> Category {
        let category = Category(id: UUID(), name: name)
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

    /// Unlinks an acronym from a category. Nil when both exist (linked or not); otherwise the
    /// reference that points nowhere, as `attach` would answer it (`ConstraintFields`). A removed
    /// link proves both exist, so only an unlinked pair costs a second statement.
    func detach(acronym acronymID: UUID, category categoryID: UUID) async throws -> ConstraintFields.Reference? {
        let removed = try await db.execute("""
            DELETE FROM acronym_category_pivot WHERE acronym_id = \(acronymID) AND category_id = \(categoryID)
            """)
        guard removed == 0 else { return nil }
        let rows = try await db.query("""
            SELECT EXISTS (SELECT 1 FROM acronyms WHERE id = \(acronymID)) AS acronym,
                   EXISTS (SELECT 1 FROM categories WHERE id = \(categoryID)) AS category
            """)
        guard let row = rows.first else { throw PostgresError(.server, message: "a SELECT without FROM answered no row") }
        if try !row.decode(column: "acronym", as: Bool.self) { return .acronym }
        return try row.decode(column: "category", as: Bool.self) ? nil : .category
    }
}
