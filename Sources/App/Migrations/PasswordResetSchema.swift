import Postgres

extension TILMigrations {
    /// Password reset by mail (issue 21; `PasswordResets`).
    ///
    /// - `password_resets`: the live reset of an account, by the SHA-256 digest of its token
    ///   (never the token). A newer request deletes the older row, so one link works at a time.
    ///   `failures` counts wrong codes at its second step, across every mfaToken it was given;
    ///   `new_password_hash` is the password its first confirm chose while that step is pending.
    /// - `password_reset_requests`: every admitted request, the per-address and per-account
    ///   limits' counts (`sent`: it queued a real mail).
    /// - `mfa_challenges.password_reset`: an mfaToken issued for a reset's second step names
    ///   that reset, and dies with it; a login's has none. Neither is accepted for the other.
    /// - `password_reset_begin(...)`: the admission, in one statement, as `login_attempt_begin`
    ///   does it: an advisory lock per address, then per account, held to the end of the
    ///   transaction, each query after them reading a snapshot taken after the locks.
    static let passwordResets = Migration(
        name: "PasswordResets",
        prepare: [
            """
            CREATE TABLE password_resets (
                digest text PRIMARY KEY,
                user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                expires_at timestamptz NOT NULL,
                failures int NOT NULL DEFAULT 0,
                new_password_hash text,
                created_at timestamptz NOT NULL DEFAULT now(),
                seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE
            )
            """,
            "CREATE INDEX password_resets_user ON password_resets (user_id)",
            "CREATE INDEX password_resets_expiry ON password_resets (expires_at)",
            """
            CREATE TABLE password_reset_requests (
                id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                address text NOT NULL,
                user_id uuid REFERENCES users (id) ON DELETE CASCADE,
                sent boolean NOT NULL,
                requested_at timestamptz NOT NULL
            )
            """,
            "CREATE INDEX password_reset_requests_address ON password_reset_requests (address, requested_at)",
            "CREATE INDEX password_reset_requests_user ON password_reset_requests (user_id, requested_at)",
            "ALTER TABLE mfa_challenges ADD COLUMN password_reset text REFERENCES password_resets (digest) ON DELETE CASCADE",
            "CREATE INDEX mfa_challenges_password_reset ON mfa_challenges (password_reset)",
            passwordResetBegin,
        ],
        revert: [
            "DROP FUNCTION password_reset_begin",
            "ALTER TABLE mfa_challenges DROP COLUMN password_reset",
            "DROP TABLE password_reset_requests",
            "DROP TABLE password_resets",
        ])

    /// Refuses a request over its address's limit (`wait_seconds`, nothing written), or admits
    /// it (a `password_reset_requests` row) with the account `p_login` names, if it has a
    /// verified address: a username, or else an email, compared as logins compare usernames
    /// (`lower()` of the NFC form the caller sends). `account_limited`: the account already had
    /// `p_account_limit` mails within the window, and this request sends none.
    private static let passwordResetBegin = """
        CREATE FUNCTION password_reset_begin(
            p_login text, p_address text, p_address_limit bigint, p_account_limit bigint, p_window float8)
        RETURNS TABLE (wait_seconds float8, account_id uuid, account_username text, account_email text,
                       account_limited boolean)
        LANGUAGE plpgsql VOLATILE AS $$
        DECLARE
            v_now timestamptz;
            v_wait float8;
            v_account_id uuid;
            v_username text;
            v_email text;
            v_sent bigint := 0;
        BEGIN
            PERFORM pg_advisory_xact_lock(3, hashtext(p_address));
            v_now := clock_timestamp();
            v_wait := extract(epoch FROM (
                SELECT r.requested_at FROM password_reset_requests r
                WHERE r.address = p_address AND r.requested_at > v_now - p_window * interval '1 second'
                ORDER BY r.requested_at DESC OFFSET p_address_limit - 1 LIMIT 1) + p_window * interval '1 second' - v_now)::float8;
            IF v_wait > 0 THEN
                RETURN QUERY SELECT v_wait, NULL::uuid, NULL::text, NULL::text, false;
                RETURN;
            END IF;
            SELECT u.id, u.username, u.email INTO v_account_id, v_username, v_email FROM users u
            WHERE octet_length(p_login) <= 256 AND u.email_verified_at IS NOT NULL
              AND (lower(u.username) = lower(p_login) OR lower(u.email) = lower(p_login))
            ORDER BY lower(u.username) = lower(p_login) DESC
            LIMIT 1;
            IF v_account_id IS NOT NULL THEN
                PERFORM pg_advisory_xact_lock(4, hashtext(v_account_id::text));
                SELECT count(*) INTO v_sent FROM password_reset_requests r
                WHERE r.user_id = v_account_id AND r.sent
                  AND r.requested_at > clock_timestamp() - p_window * interval '1 second';
            END IF;
            INSERT INTO password_reset_requests (address, user_id, sent, requested_at)
            VALUES (p_address, v_account_id, v_account_id IS NOT NULL AND v_sent < p_account_limit, v_now);
            RETURN QUERY SELECT NULL::float8, v_account_id, v_username, v_email, v_sent >= p_account_limit;
        END
        $$
        """
}
