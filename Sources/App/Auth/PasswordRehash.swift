import Crypt
import Foundation
import Logging
import Postgres

/// Brings a stored hash up to `BCRYPT_COST` when the password is known, at a login that
/// proved it: raising the cost then strengthens every account that logs in, without a reset.
/// A stored cost at or above the configured one is kept (a lower setting never weakens a hash).
///
/// Runs inline, after the check and before the answer: one extra hash at the new cost, once
/// per account and cost change. It never fails the login: if the bcrypt queue refuses the
/// work or the write fails, the next login tries again.
struct PasswordRehash: Sendable {
    let hasher: BcryptHasher
    let db: PostgresClient
    let logger: Logger

    /// `user` as stored afterwards: with the new hash when it was written, else unchanged.
    @discardableResult
    func upgrade(_ user: User, password: String) async -> User {
        guard let stored = Self.cost(of: user.passwordHash), stored < hasher.cost else { return user }
        do {
            let hash = try await hasher.hash(password)
            // Only over the hash that was verified: a password changed meanwhile stays changed.
            let rows = try await db.query("""
                UPDATE users SET password_hash = \(hash) WHERE id = \(user.id) AND password_hash = \(user.passwordHash)
                RETURNING id
                """)
            guard !rows.isEmpty else { return user }
            var upgraded = user
            upgraded.passwordHash = hash
            return upgraded
        } catch {
            logger.warning("password not rehashed at the configured cost", metadata: [
                "user-id": .string(user.id.uuidString), "error": .string("\(error)"),
            ])
            return user
        }
    }

    /// The cost of a `$2?$NN$…` hash (one that just verified, so well formed).
    static func cost(of hash: String) -> Int? {
        let fields = hash.split(separator: "$", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3, fields[0].isEmpty, fields[1].hasPrefix("2") else { return nil }
        return Int(fields[2].prefix(2))
    }
}
