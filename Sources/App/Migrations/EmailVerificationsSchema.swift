import Postgres

extension TILMigrations {
    /// Email verification (issue 21, `Sources/App/Email`):
    ///
    /// - `email_verifications`: a link's token, stored as its SHA-256 only, single-use (spent by
    ///   the `DELETE … RETURNING` that verifies), living 24 hours, tied to its user and to the
    ///   address it proves. `purpose` `verify` proves the account's current address; `change`
    ///   is a pending change to `email`, which the account takes only once it is proven (the
    ///   newest live `change` row is the pending address).
    /// - `email_sends`: each verification mail sent, with the account, the client address that
    ///   asked and the recipient, for the resend throttle (per account, per client address, per
    ///   recipient, over a sliding hour). Rows older than the window are purged.
    static let emailVerifications = Migration(
        name: "EmailVerifications",
        prepare: [
            """
            CREATE TABLE email_verifications (
                digest text PRIMARY KEY,
                user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                email text NOT NULL,
                purpose text NOT NULL CHECK (purpose IN ('verify', 'change')),
                expires_at timestamptz NOT NULL,
                created_at timestamptz NOT NULL DEFAULT now(),
                seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE
            )
            """,
            "CREATE INDEX email_verifications_user_id ON email_verifications (user_id)",
            "CREATE INDEX email_verifications_expires_at ON email_verifications (expires_at)",
            """
            CREATE TABLE email_sends (
                id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                address text NOT NULL,
                recipient text NOT NULL,
                sent_at timestamptz NOT NULL DEFAULT now()
            )
            """,
            "CREATE INDEX email_sends_user_id ON email_sends (user_id, sent_at)",
            "CREATE INDEX email_sends_address ON email_sends (address, sent_at)",
            "CREATE INDEX email_sends_recipient ON email_sends (lower(recipient), sent_at)",
            "CREATE INDEX email_sends_sent_at ON email_sends (sent_at)",
        ],
        revert: ["DROP TABLE email_sends", "DROP TABLE email_verifications"])
}
