import Foundation
import Postgres

/// Users in PostgreSQL. Explicit SQL, every value bound.
struct UserRepository: Sendable {
    let db: PostgresClient

    private struct Row: Decodable {
        var id: UUID
        var name: String
        var username: String
        var passwordHash: String
        var user: User { User(id: id, name: name, username: username, passwordHash: passwordHash) }
    }

    func all() async throws -> [User] {
        try await db.query("""
            SELECT id, name, username, password_hash AS "passwordHash" FROM users ORDER BY seq
            """).map { try $0.decode(Row.self).user }
    }

    func find(_ id: UUID) async throws -> User? {
        try await db.query("""
            SELECT id, name, username, password_hash AS "passwordHash" FROM users WHERE id = \(id)
            """).first.map { try $0.decode(Row.self).user }
    }

    func find(username: String) async throws -> User? {
        try await db.query("""
            SELECT id, name, username, password_hash AS "passwordHash" FROM users WHERE username = \(username)
            """).first.map { try $0.decode(Row.self).user }
    }

    /// Inserts a user; a taken username surfaces as PostgreSQL's unique violation (→ 409).
    func create(name: String, username: String, passwordHash: String) async throws -> User {
        let user = User(id: UUID(), name: name, username: username, passwordHash: passwordHash)
        try await db.execute("""
            INSERT INTO users (id, name, username, password_hash) VALUES (\(user.id), \(name), \(username), \(passwordHash))
            """)
        return user
    }
}
