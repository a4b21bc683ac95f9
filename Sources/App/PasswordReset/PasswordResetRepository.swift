import Crypt
import Foundation
import Postgres

/// The live password resets (`password_resets`): one per account at most, found by the
/// SHA-256 digest of the token the mail's link carries (the token itself is never stored),
/// judged by the database's clock.
struct PasswordResetRepository: Sendable {
    let db: PostgresClient
    /// Longer than any token TIL issues: not looked up at all.
    static let maxTokenBytes = 128
    /// Wrong codes at a reset's second step, over all its mfaTokens, before the reset ends.
    static let maxFailures = MFAChallengeRepository.maxFailures

    /// A live reset, locked by the transaction that read it.
    struct Live: Sendable {
        let digest: String
        let userID: UUID
        /// The password the first confirm chose, when its second step is pending.
        let newPasswordHash: String?
    }

    /// The account `token` resets, without locking (to know the user before a transaction);
    /// nil when unknown, used, replaced or expired.
    func owner(of token: String) async throws -> UUID? {
        guard let digest = Self.digest(token) else { return nil }
        return try await db.query("""
            SELECT user_id FROM password_resets WHERE digest = \(digest) AND expires_at > now()
            """).first?.decode(column: "user_id", as: UUID.self)
    }

    /// `userID`'s live reset `token`, locked on `tx` until it ends (two confirms with one
    /// token take turns, and the second finds it gone); nil when there is none.
    func lock(_ token: String, of userID: UUID, on tx: any PostgresQueryable) async throws -> Live? {
        guard let digest = Self.digest(token) else { return nil }
        let rows = try await tx.query("""
            SELECT digest, new_password_hash FROM password_resets
            WHERE digest = \(digest) AND user_id = \(userID) AND expires_at > now() FOR UPDATE
            """)
        guard let row = rows.first, ConstantTime.equals(try row.decode(column: "digest", as: String.self), digest) else { return nil }
        return Live(digest: digest, userID: userID, newPasswordHash: try row.decode(column: "new_password_hash", as: String?.self))
    }

    /// The second step `reset` now waits for: `newPasswordHash` kept for it, and a new mfaToken
    /// bound to it in place of any earlier one (its wrong codes still count: `failures` is the
    /// reset's). The mfaToken.
    func awaitSecondFactor(
        _ reset: Live, newPasswordHash: String, challenges: MFAChallengeRepository, on tx: any PostgresQueryable
    ) async throws -> String {
        try await tx.execute("""
            WITH kept AS (UPDATE password_resets SET new_password_hash = \(newPasswordHash) WHERE digest = \(reset.digest))
            DELETE FROM mfa_challenges WHERE password_reset = \(reset.digest)
            """)
        return try await challenges.issue(for: reset.userID, scopes: [], passwordReset: reset.digest, on: tx)
    }

    /// Counts a wrong code against `reset`; true when that was its last allowed one: the reset
    /// and its mfaToken are gone.
    func fail(_ reset: Live, on tx: any PostgresQueryable) async throws -> Bool {
        let rows = try await tx.query("""
            UPDATE password_resets SET failures = failures + 1 WHERE digest = \(reset.digest) RETURNING failures
            """)
        let failures = try rows.first?.decode(column: "failures", as: Int.self) ?? Self.maxFailures
        guard failures >= Self.maxFailures else { return false }
        try await tx.execute("DELETE FROM password_resets WHERE digest = \(reset.digest)")
        return true
    }

    /// `nil` for a value that cannot be a token TIL issued (too long): never looked up.
    static func digest(_ token: String) -> String? {
        token.isEmpty || token.utf8.count > maxTokenBytes ? nil : SHA256.hex(of: token)
    }
}
