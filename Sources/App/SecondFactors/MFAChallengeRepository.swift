import Crypt
import Foundation
import Postgres

/// The `mfaToken`s of password logins waiting for their second factor: 256 random bits,
/// stored as SHA-256 digests with the user and the scopes the first step asked for, single
/// use, `lifetime` long, and ended by their `maxFailures`-th wrong code. Times come from the
/// second factors' clock, so tests can expire a token without waiting.
///
/// A password reset's second step uses them too (`passwordReset`: the digest of the reset
/// they belong to, nil for a login's): each lookup names which it wants, so a reset's
/// mfaToken never completes a login, nor a login's a reset.
struct MFAChallengeRepository: Sendable {
    let db: PostgresClient
    let clock: SecondFactorClock
    static let lifetime: TimeInterval = 300
    static let maxFailures = 5
    /// Longer than any token TIL issues: not looked up at all.
    static let maxTokenBytes = 128

    /// A pending second step.
    struct Pending: Sendable {
        let userID: UUID
        let scopes: [Scope]
    }

    /// A new mfaToken for `userID` carrying `scopes`, on `runner` (the client by default).
    func issue(
        for userID: UUID, scopes: [Scope], passwordReset: String? = nil, on runner: (any PostgresQueryable)? = nil
    ) async throws -> String {
        let token = SecureRandom.token()
        let expiry = clock.now.addingTimeInterval(Self.lifetime)
        let runner: any PostgresQueryable = runner ?? db
        try await runner.execute("""
            INSERT INTO mfa_challenges (digest, user_id, scopes, expires_at, password_reset)
            VALUES (\(SHA256.hex(of: token)), \(userID), \(Scope.storageText(scopes)), \(expiry), \(passwordReset))
            """)
        return token
    }

    /// The live challenge `token` names, locked on `runner` until its transaction ends (so two
    /// requests with one token take turns, and the second finds it spent); nil when unknown,
    /// spent, ended or expired.
    func lock(_ token: String, passwordReset: String? = nil, on runner: any PostgresQueryable) async throws -> Pending? {
        guard token.utf8.count <= Self.maxTokenBytes else { return nil }
        let digest = SHA256.hex(of: token)
        let rows = try await runner.query("""
            SELECT digest, user_id, scopes FROM mfa_challenges
            WHERE digest = \(digest) AND expires_at > \(clock.now) AND password_reset IS NOT DISTINCT FROM \(passwordReset)
            FOR UPDATE
            """)
        guard let row = rows.first, ConstantTime.equals(try row.decode(column: "digest", as: String.self), digest) else { return nil }
        return Pending(
            userID: try row.decode(column: "user_id", as: UUID.self), scopes: Scope.stored(try row.decode(column: "scopes", as: String.self)))
    }

    /// The user `token` is for, without locking (to key the throttle before the transaction).
    func user(of token: String, passwordReset: String? = nil) async throws -> UUID? {
        guard token.utf8.count <= Self.maxTokenBytes else { return nil }
        return try await db.query("""
            SELECT user_id FROM mfa_challenges
            WHERE digest = \(SHA256.hex(of: token)) AND expires_at > \(clock.now) AND password_reset IS NOT DISTINCT FROM \(passwordReset)
            """).first?.decode(column: "user_id", as: UUID.self)
    }

    /// Spends `token` (a second factor proved it).
    func spend(_ token: String, on runner: any PostgresQueryable) async throws {
        try await runner.execute("DELETE FROM mfa_challenges WHERE digest = \(SHA256.hex(of: token))")
    }

    /// Counts a wrong code against `token`; true when that was its last allowed one (it is gone).
    func fail(_ token: String, on runner: any PostgresQueryable) async throws -> Bool {
        let digest = SHA256.hex(of: token)
        let rows = try await runner.query("""
            UPDATE mfa_challenges SET failures = failures + 1 WHERE digest = \(digest) RETURNING failures
            """)
        let failures = try rows.first?.decode(column: "failures", as: Int.self) ?? Self.maxFailures
        guard failures >= Self.maxFailures else { return false }
        try await runner.execute("DELETE FROM mfa_challenges WHERE digest = \(digest)")
        return true
    }
}
