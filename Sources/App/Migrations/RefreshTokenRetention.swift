import Postgres

extension TILMigrations {
    /// Spent refresh tokens are now kept as long as their session can be live (reuse detection
    /// must outlive a day), and a session's refreshes in the last minute are counted on every
    /// redemption (`RefreshRateLimit`): one index on `(session_id, created_at)` serves both, the
    /// purge's join and foreign-key cascades through its leading column. It replaces the
    /// single-column index; the purge no longer looks refresh tokens up by their own expiry.
    static let refreshTokenRetention = Migration(
        name: "RefreshTokenRetention",
        prepare: [
            "CREATE INDEX refresh_tokens_session_created ON refresh_tokens (session_id, created_at)",
            "DROP INDEX refresh_tokens_session_id",
            "DROP INDEX refresh_tokens_expires_at",
        ],
        revert: [
            "CREATE INDEX refresh_tokens_session_id ON refresh_tokens (session_id)",
            "CREATE INDEX refresh_tokens_expires_at ON refresh_tokens (expires_at)",
            "DROP INDEX refresh_tokens_session_created",
        ])
}
