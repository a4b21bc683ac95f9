import Postgres

/// The token lifecycle's schema: logins as sessions, access tokens that expire, refresh tokens
/// that rotate, and failed-login counters shared by every TIL process.
extension TILMigrations {
    /// A session is one login: every access and refresh token descends from one, so ending the
    /// session (logout, reuse detected, password changed) revokes the whole family at once.
    /// Tokens of the book's model never expired and belonged to no login: they are dropped, and
    /// their holders log in again.
    static let createSessions = Migration(
        name: "CreateSessions",
        prepare: [
            """
            CREATE TABLE sessions (
                id uuid PRIMARY KEY,
                user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                scopes text NOT NULL,
                user_agent text,
                created_at timestamptz NOT NULL DEFAULT now(),
                last_used_at timestamptz NOT NULL DEFAULT now(),
                expires_at timestamptz NOT NULL,
                refresh_expires_at timestamptz NOT NULL,
                revoked_at timestamptz,
                seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE
            )
            """,
            "CREATE INDEX sessions_user_id ON sessions (user_id) WHERE revoked_at IS NULL",
            "CREATE INDEX sessions_purge ON sessions (refresh_expires_at)",
            "DELETE FROM tokens",
            "ALTER TABLE tokens ADD COLUMN session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE",
            "ALTER TABLE tokens ALTER COLUMN expires_at SET NOT NULL",
            "CREATE INDEX tokens_session_id ON tokens (session_id)",
            "CREATE INDEX tokens_expires_at ON tokens (expires_at)",
        ],
        revert: [
            "DELETE FROM tokens",
            "ALTER TABLE tokens DROP COLUMN session_id",
            "ALTER TABLE tokens ALTER COLUMN expires_at DROP NOT NULL",
            "DROP INDEX IF EXISTS tokens_expires_at",
            "DROP TABLE sessions",
        ])

    /// Refresh tokens, stored as digests. `parent_id` links each to the one it was issued for,
    /// so a just-spent token's successor can be found (reuse grace); `spent_at` makes
    /// redemption one atomic `UPDATE ... WHERE spent_at IS NULL`.
    static let createRefreshTokens = Migration(
        name: "CreateRefreshTokens",
        prepare: [
            """
            CREATE TABLE refresh_tokens (
                id uuid PRIMARY KEY,
                digest text NOT NULL UNIQUE,
                session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
                parent_id uuid,
                access_token_id uuid NOT NULL,
                created_at timestamptz NOT NULL DEFAULT now(),
                expires_at timestamptz NOT NULL,
                spent_at timestamptz,
                revoked_at timestamptz
            )
            """,
            "CREATE INDEX refresh_tokens_session_id ON refresh_tokens (session_id)",
            "CREATE INDEX refresh_tokens_parent_id ON refresh_tokens (parent_id)",
            "CREATE INDEX refresh_tokens_expires_at ON refresh_tokens (expires_at)",
        ],
        revert: ["DROP TABLE refresh_tokens"])

    /// One row per failed login, so every process behind a load balancer throttles alike.
    /// Counting the rows inside a sliding window needs no reset job; old rows are purged.
    static let createLoginFailures = Migration(
        name: "CreateLoginFailures",
        prepare: [
            """
            CREATE TABLE login_failures (
                username text NOT NULL,
                address text NOT NULL,
                at timestamptz NOT NULL DEFAULT clock_timestamp()
            )
            """,
            "CREATE INDEX login_failures_username ON login_failures (username, at)",
            "CREATE INDEX login_failures_address ON login_failures (address, at)",
            "CREATE INDEX login_failures_at ON login_failures (at)",
        ],
        revert: ["DROP TABLE login_failures"])
}
