import Crypt
import Foundation
import Postgres

/// Bearer tokens, stored as SHA-256 digests only: a leaked tokens table grants nothing.
struct TokenRepository: Sendable {
    let db: PostgresClient

    /// Issues a new random token for `userID` and returns it with its clear value (shown once).
    func issue(for userID: UUID) async throws -> Token {
        let value = SecureRandom.token()
        let token = Token(id: UUID(), value: value, user: UserReference(id: userID))
        try await db.execute("INSERT INTO tokens (id, digest, user_id) VALUES (\(token.id), \(SHA256.hex(of: value)), \(userID))")
        return token
    }

    /// The user a live token belongs to, in one query. The lookup is by digest, so the
    /// database's comparison reveals nothing usable about the token; the digest is compared
    /// once more in constant time anyway.
    func user(forToken value: String) async throws -> User? {
        let digest = SHA256.hex(of: value)
        let rows = try await db.query("""
            SELECT t.digest, u.id, u.name, u.username, u.password_hash AS "passwordHash"
            FROM tokens t JOIN users u ON u.id = t.user_id
            WHERE t.digest = \(digest) AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())
            """)
        guard let row = rows.first, ConstantTime.equals(try row.decode(column: "digest", as: String.self), digest) else {
            return nil
        }
        return try UserRepository.user(row)
    }
}
