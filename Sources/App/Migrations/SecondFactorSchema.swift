import Postgres

extension TILMigrations {
    /// Second factors (issue 20; `SecondFactors`). Every session records how it was proven
    /// (`amr`, RFC 8176); a TOTP secret sealed with `SECRET_KEY` per user, pending until
    /// confirmed, with the last accepted time step (a code is usable once, in every process);
    /// recovery codes as SHA-256 digests only; and the mfaTokens of logins waiting for their
    /// second step, as digests, with their scopes and wrong-code count.
    static let secondFactorSchema = Migration(
        name: "SecondFactors",
        prepare: [
            "ALTER TABLE sessions ADD COLUMN amr text[] NOT NULL DEFAULT '{pwd}'",
            """
            CREATE TABLE totp_credentials (
                user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
                sealed_secret bytea NOT NULL,
                confirmed_at timestamptz,
                last_step bigint,
                created_at timestamptz NOT NULL DEFAULT now()
            )
            """,
            """
            CREATE TABLE recovery_codes (
                id uuid PRIMARY KEY,
                user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                digest text NOT NULL UNIQUE,
                created_at timestamptz NOT NULL DEFAULT now(),
                seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE
            )
            """,
            "CREATE INDEX recovery_codes_user ON recovery_codes (user_id)",
            """
            CREATE TABLE mfa_challenges (
                digest text PRIMARY KEY,
                user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                scopes text NOT NULL,
                failures int NOT NULL DEFAULT 0,
                expires_at timestamptz NOT NULL,
                created_at timestamptz NOT NULL DEFAULT now()
            )
            """,
            "CREATE INDEX mfa_challenges_user ON mfa_challenges (user_id)",
            "CREATE INDEX mfa_challenges_expiry ON mfa_challenges (expires_at)",
        ],
        revert: [
            "DROP TABLE mfa_challenges", "DROP TABLE recovery_codes", "DROP TABLE totp_credentials",
            "ALTER TABLE sessions DROP COLUMN amr",
        ])
}
