import Crypt
import Foundation
import Postgres

/// Users in PostgreSQL. Explicit SQL, every value bound. In the app `db` is a `RoutedDatabase`:
/// anonymous reads may be answered by a replica, writes always by the primary.
struct UserRepository: Sendable {
    let db: any PostgresQueryable

    /// Reads the columns every query here selects.
    static func user(_ row: PostgresRow) throws -> User {
        User(
            id: try row.decode(column: "id", as: UUID.self), name: try row.decode(column: "name", as: String.self),
            username: try row.decode(column: "username", as: String.self),
            passwordHash: try row.decode(column: "passwordHash", as: String.self))
    }

    /// Users as clients see them (never a hash: it is not even read).
    func allPublic(page: PageRequest? = nil) async throws -> Page<User.Public> {
        try Page(rows: try await db.query("""
            SELECT id, name, username, seq AS page_seq FROM users
            WHERE \(rowsAfter: page, seq: "seq") ORDER BY seq\(limitOf: page)
            """), request: page) { row in
            User.Public(
                id: try row.decode(column: "id", as: UUID.self), name: try row.decode(column: "name", as: String.self),
                username: try row.decode(column: "username", as: String.self))
        }
    }

    func find(_ id: UUID) async throws -> User? {
        try await db.query("""
            SELECT id, name, username, password_hash AS "passwordHash" FROM users WHERE id = \(id)
            """).first.map(Self.user)
    }

    /// The user a login names, whatever case or Unicode normalisation form the client sent
    /// (see `UsernameRules`). Uses the unique index on `lower(username)`.
    func find(username: String) async throws -> User? {
        try await db.query("""
            SELECT id, name, username, password_hash AS "passwordHash" FROM users
            WHERE lower(username) = lower(\(UsernameRules.normalized(username)))
            """).first.map(Self.user)
    }

    /// Inserts a user, its username in NFC, with an unverified `email` (validated, NFC) if
    /// given; a username or an address taken in any case surfaces as PostgreSQL's unique
    /// violation (→ 409 naming the field).
    func create(name: String, username: String, passwordHash: String, email: String? = nil) async throws -> User {
        let username = UsernameRules.normalized(username)
        let user = User(id: SecureRandom.uuid(), name: name, username: username, passwordHash: passwordHash)
        try await db.execute("""
            INSERT INTO users (id, name, username, password_hash, email)
            VALUES (\(user.id), \(name), \(username), \(passwordHash), \(email))
            """)
        return user
    }

    /// Replaces a user's password hash, on `runner` when it is part of a larger transaction.
    func setPasswordHash(_ hash: String, of userID: UUID, on runner: any PostgresQueryable) async throws {
        try await runner.execute("UPDATE users SET password_hash = \(hash) WHERE id = \(userID)")
    }
}
