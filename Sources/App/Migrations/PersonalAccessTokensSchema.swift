import Postgres

extension TILMigrations {
    /// Personal access tokens (issue 21; `PersonalAccessTokenRepository`): a session of kind
    /// `pat` per token, holding one access-token row (`til_pat_…`, by digest) and no refresh
    /// token; its `expires_at` and `refresh_expires_at` are the token's expiry, so the session
    /// list, the purge and every check of a live session treat it as they treat a login. `name`
    /// is the owner's label (a PAT has one, nothing else does); `last_used_from` is the client
    /// address of its last recorded use (`last_used_at`).
    static let personalAccessTokens = Migration(
        name: "PersonalAccessTokens",
        prepare: [
            "ALTER TABLE sessions DROP CONSTRAINT sessions_kind_check",
            "ALTER TABLE sessions ADD CONSTRAINT sessions_kind_check CHECK (kind IN ('login', 'browser', 'oauth', 'pat'))",
            "ALTER TABLE sessions ADD COLUMN name text, ADD COLUMN last_used_from text",
            "ALTER TABLE sessions ADD CONSTRAINT sessions_pat_name CHECK ((kind = 'pat') = (name IS NOT NULL))",
        ],
        revert: [
            "DELETE FROM sessions WHERE kind = 'pat'",
            "ALTER TABLE sessions DROP CONSTRAINT sessions_pat_name",
            "ALTER TABLE sessions DROP COLUMN name, DROP COLUMN last_used_from",
            "ALTER TABLE sessions DROP CONSTRAINT sessions_kind_check",
            "ALTER TABLE sessions ADD CONSTRAINT sessions_kind_check CHECK (kind IN ('login', 'browser', 'oauth'))",
        ])
}
