import Crypt
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

    /// For seeding and tests: the app creates acronyms as their caller (`create(short:long:by:)`).
    func create(short: String, long: String, userID: UUID) async throws -> Acronym {
        let acronym = Acronym(id: SecureRandom.uuid(), short: short, long: long, user: UserReference(id: userID))
        try await db.execute("INSERT INTO acronyms (id, short, long, user_id) VALUES (\(acronym.id), \(short), \(long), \(userID))")
        return acronym
    }

    // Writes as a bearer: each is one statement with the token check (`Caller.write`), which
    // reads the caller's id as `caller.user_id`.

    /// A new acronym owned by the caller.
    func create(short: String, long: String, by caller: Caller) async throws -> Acronym {
        let id = SecureRandom.uuid()
        guard let row = try await caller.write("""
            INSERT INTO acronyms (id, short, long, user_id) SELECT \(id), \(short), \(long), caller.user_id FROM caller
            RETURNING user_id AS "userID"
            """)
        else { throw PostgresError(.server, message: "an INSERT ... SELECT FROM a caller returned no row") }
        return Acronym(id: id, short: short, long: long, user: UserReference(id: try row.decode(column: "userID", as: UUID.self)))
    }

    /// Sets short and long, and the caller as owner; nil when no acronym matched: none has that
    /// id, or (`ownedOnly`) the caller does not own it.
    func update(_ id: UUID, short: String, long: String, by caller: Caller, ownedOnly: Bool) async throws -> Acronym? {
        try await caller.write("""
            UPDATE acronyms a SET short = \(short), long = \(long), user_id = caller.user_id FROM caller
            WHERE a.id = \(id) AND \(Self.owned(ownedOnly)) RETURNING \(Self.columns)
            """).map(Self.acronym)
    }

    /// False when no acronym matched, as for `update`.
    func delete(_ id: UUID, by caller: Caller, ownedOnly: Bool) async throws -> Bool {
        try await caller.write("DELETE FROM acronyms a USING caller WHERE a.id = \(id) AND \(Self.owned(ownedOnly)) RETURNING a.id") != nil
    }

    /// SQL: the acronym `a` is the caller's, when only owners may change it.
    static func owned(_ ownedOnly: Bool) -> PostgresQuery {
        ownedOnly ? "a.user_id = caller.user_id" : "TRUE"
    }

    /// Rows are read column by column (not through `Decodable`): lists are the hot path.
    private func list(_ page: PageRequest?, _ query: PostgresQuery) async throws -> Page<Acronym> {
        try Page(rows: try await db.query(query), request: page, item: Self.acronym)
    }

    private static func acronym(_ row: PostgresRow) throws -> Acronym {
        Acronym(
            id: try row.decode(column: "id", as: UUID.self),
            short: try row.decode(column: "short", as: String.self),
            long: try row.decode(column: "long", as: String.self),
            user: UserReference(id: try row.decode(column: "userID", as: UUID.self)))
    }
}
