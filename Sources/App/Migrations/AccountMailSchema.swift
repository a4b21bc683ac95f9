import Postgres

extension TILMigrations {
    /// Email on accounts and the mail outbox (issue 21). An address is unique ignoring case
    /// (`users_email_key`, like usernames); `email_verified_at` says whether its owner proved it.
    /// `mail_outbox` holds messages not yet delivered (`MailOutbox`): `decoy` rows are never
    /// sent; `attempts`, `next_attempt_at` and `last_error` carry the sender's backoff.
    static let accountMailSchema = Migration(
        name: "AccountMail",
        prepare: [
            "ALTER TABLE users ADD COLUMN email text",
            "ALTER TABLE users ADD COLUMN email_verified_at timestamptz",
            "CREATE UNIQUE INDEX users_email_key ON users (lower(email))",
            """
            CREATE TABLE mail_outbox (
                id uuid PRIMARY KEY,
                kind text NOT NULL,
                recipient text NOT NULL,
                subject text NOT NULL,
                text_body text NOT NULL,
                html_body text NOT NULL,
                decoy boolean NOT NULL DEFAULT false,
                created_at timestamptz NOT NULL DEFAULT now(),
                attempts int NOT NULL DEFAULT 0,
                next_attempt_at timestamptz NOT NULL DEFAULT now(),
                last_error text,
                seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE
            )
            """,
            "CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at)",
        ],
        revert: [
            "DROP TABLE mail_outbox",
            "DROP INDEX users_email_key",
            "ALTER TABLE users DROP COLUMN email_verified_at, DROP COLUMN email",
        ])
}
