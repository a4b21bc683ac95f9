import Foundation
import Postgres

/// Acronyms in PostgreSQL: one query per call, no N+1. In the app `db` is a `RoutedDatabase`:
/// anonymous reads may be answered by a replica, writes always by the primary.
struct AcronymRepository: Sendable {
    let db: any PostgresQueryable

    private static let columns: PostgresQuery = #"a.id, a.short, a.long, a.user_id AS "userID""#

    func all(page: PageRequest? = nil) async throws -> Page<Acronym> {
        try await list(page, """
            SELECT \(Self.columns), a.seq AS page_seq FROM acronyms a
            WHERE \(rowsAfter: page, seq: "a.seq") ORDER BY a.seq\(limitOf: page)
            """)
    }

    func find(_ id: UUID) async throws -> Acronym? {
        try await list(nil, "SELECT \(Self.columns) FROM acronyms a WHERE a.id = \(id)").items.first
    }

    /// Exact match on the short or the long form.
    func search(_ term: String, page: PageRequest? = nil) async throws -> Page<Acronym> {
        try await list(page, """
            SELECT \(Self.columns), a.seq AS page_seq FROM acronyms a
            WHERE (a.short = \(term) OR a.long = \(term)) AND \(rowsAfter: page, seq: "a.seq") ORDER BY a.seq\(limitOf: page)
            """)
    }

    func first() async throws -> Acronym? {
        try await list(nil, "SELECT \(Self.columns) FROM acronyms a ORDER BY a.seq LIMIT 1").items.first
    }

    func sorted(page: PageRequest? = nil) async throws -> Page<Acronym> {
        try await list(page, """
            SELECT \(Self.columns), a.seq AS page_seq FROM acronyms a
            WHERE \(rowsAfter: page, seq: "a.seq", short: "a.short") ORDER BY a.short ASC, a.seq\(limitOf: page)
            """)
    }

    func owned(by userID: UUID, page: PageRequest? = nil) async throws -> Page<Acronym> {
        try await list(page, """
            SELECT \(Self.columns), a.seq AS page_seq FROM acronyms a
            WHERE a.user_id = \(userID) AND \(rowsAfter: page, seq: "a.seq") ORDER BY a.seq\(limitOf: page)
            """)
    }

    /// In the order the acronyms were linked to the category.
    func inCategory(_ categoryID: UUID, page: PageRequest? = nil) async throws -> Page<Acronym> {
        try await list(page, """
            SELECT \(Self.columns), p.seq AS page_seq FROM acronyms a
            JOIN acronym_category_pivot p ON p.acronym_id = a.id
            WHERE p.category_id = \(categoryID) AND \(rowsAfter: page, seq: "p.seq") ORDER BY p.seq\(limitOf: page)
            """)
    }

    func create(short: String, long: String, userID: UUID) async throws -> Acronym {
        let acronym = Acronym(id: UUID(), short: short, long: long, user: UserReference(id: userID))
        try await db.execute("INSERT INTO acronyms (id, short, long, user_id) VALUES (\(acronym.id), \(short), \(long), \(userID))")
        return acronym
    }

    /// Sets short, long and owner; nil when there is no such acronym.
    func update(_ id: UUID, short: String, long: String, userID: UUID) async throws -> Acronym? {
        guard try await db.execute("UPDATE acronyms SET short = \(short), long = \(long), user_id = \(userID) WHERE id = \(id)") == 1 else {
            return nil
        }
        return Acronym(id: id, short: short, long: long, user: UserReference(id: userID))
    }

    /// False when there was no such acronym.
    func delete(_ id: UUID) async throws -> Bool {
        try await db.execute("DELETE FROM acronyms WHERE id = \(id)") == 1
    }

    /// Rows are read column by column (not through `Decodable`): lists are the hot path.
    private func list(_ page: PageRequest?, _ query: PostgresQuery) async throws -> Page<Acronym> {
        try Page(rows: try await db.query(query), request: page) { row in
            Acronym(
                id: try row.decode(column: "id", as: UUID.self),
                short: try row.decode(column: "short", as: String.self),
                long: try row.decode(column: "long", as: String.self),
                user: UserReference(id: try row.decode(column: "userID", as: UUID.self)))
        }
    }
}
