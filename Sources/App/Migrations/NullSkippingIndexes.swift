import Postgres

extension TILMigrations {
    /// A `client_credentials` session has no user and no browser cookie, and its access token
    /// no user, yet each issuance stored a NULL entry in three indexes that no query reads for
    /// NULL (every lookup is `= $n`, which a NULL never matches; NULLs never conflict in a
    /// unique index either): `sessions_browser_digest_key`, `sessions_user_id` and
    /// `tokens_user_id`. Partial indexes skip them, so issuance writes 8 index entries
    /// instead of 11 (issue 18's benchmark). Same names, same lookups, same uniqueness; a
    /// duplicate cookie digest is still the unique violation `sessions_browser_digest_key`.
    static let nullSkippingIndexes = Migration(
        name: "NullSkippingIndexes",
        prepare: [
            "ALTER TABLE sessions DROP CONSTRAINT sessions_browser_digest_key",
            """
            CREATE UNIQUE INDEX sessions_browser_digest_key ON sessions (browser_digest)
            WHERE browser_digest IS NOT NULL
            """,
            "DROP INDEX sessions_user_id",
            "CREATE INDEX sessions_user_id ON sessions (user_id) WHERE revoked_at IS NULL AND user_id IS NOT NULL",
            "DROP INDEX tokens_user_id",
            "CREATE INDEX tokens_user_id ON tokens (user_id) WHERE user_id IS NOT NULL",
        ],
        revert: [
            "DROP INDEX tokens_user_id",
            "CREATE INDEX tokens_user_id ON tokens (user_id)",
            "DROP INDEX sessions_user_id",
            "CREATE INDEX sessions_user_id ON sessions (user_id) WHERE revoked_at IS NULL",
            "DROP INDEX sessions_browser_digest_key",
            "ALTER TABLE sessions ADD CONSTRAINT sessions_browser_digest_key UNIQUE (browser_digest)",
        ])
}
