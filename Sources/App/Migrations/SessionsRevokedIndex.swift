import Postgres

extension TILMigrations {
    /// The purge finds sessions ended a day ago by `refresh_expires_at` (indexed since
    /// `sessions_purge`) or by `revoked_at`, which had no index: every pass read the whole
    /// table. A partial index holds only revoked sessions, the ones it looks for.
    static let sessionsRevokedIndex = Migration(
        name: "SessionsRevokedIndex",
        prepare: ["CREATE INDEX sessions_revoked_at ON sessions (revoked_at) WHERE revoked_at IS NOT NULL"],
        revert: ["DROP INDEX sessions_revoked_at"])
}
