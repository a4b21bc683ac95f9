import Postgres

extension TILMigrations {
    /// The login throttle of issue 17 (see `LoginThrottle`):
    ///
    /// - `login_failures` rows get an `id`: a row is written when an attempt is admitted,
    ///   before its password is checked, and a success deletes it again by that id.
    /// - `login_known_origins`: where each user last logged in successfully (`kind` `address`
    ///   today; a device cookie can be another kind later), exempt from the account backoff.
    /// - `login_attempt_begin(...)`: the admission, in one statement. It takes an advisory lock
    ///   per username, then per address (always in that order, so two attempts never wait on
    ///   each other in a cycle), held until the statement's transaction ends. Being VOLATILE,
    ///   each query in it reads a snapshot taken after the locks, so it sees every attempt
    ///   admitted before it: however many arrive together, at most the limit are admitted.
    ///   Usernames are keyed by `lower()`, exactly as the user lookup folds them.
    static let loginAttempts = Migration(
        name: "LoginAttempts",
        prepare: [
            "ALTER TABLE login_failures ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
            """
            CREATE TABLE login_known_origins (
                user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                kind text NOT NULL,
                origin text NOT NULL,
                last_success_at timestamptz NOT NULL,
                PRIMARY KEY (user_id, kind, origin)
            )
            """,
            "CREATE INDEX login_known_origins_last_success_at ON login_known_origins (last_success_at)",
            loginAttemptBegin,
        ],
        revert: [
            "DROP FUNCTION login_attempt_begin",
            "DROP TABLE login_known_origins",
            "ALTER TABLE login_failures DROP COLUMN id",
        ])

    /// Admits an attempt (a new `login_failures` row, its id in `attempt`) or refuses it
    /// (`wait_seconds`, nothing written); either way with the key and the account, if any.
    private static let loginAttemptBegin = """
        CREATE FUNCTION login_attempt_begin(
            p_claimed text, p_address text, p_pair_limit bigint, p_address_limit bigint, p_window float8,
            p_backoff_threshold bigint, p_backoff_base float8, p_backoff_max float8, p_backoff_window float8,
            p_known_for float8, p_max_doublings bigint)
        RETURNS TABLE (attempt bigint, wait_seconds float8, throttle_key text, account_id uuid,
                       account_name text, account_username text, account_password_hash text)
        LANGUAGE plpgsql VOLATILE AS $$
        DECLARE
            v_key text := lower(left(p_claimed, 256));
            v_account users%ROWTYPE;
            v_now timestamptz;
            v_known boolean := false;
            v_wait float8 := 0;
            v_failures bigint;
            v_latest timestamptz;
            v_attempt bigint;
        BEGIN
            PERFORM pg_advisory_xact_lock(1, hashtext(v_key));
            PERFORM pg_advisory_xact_lock(2, hashtext(p_address));
            v_now := clock_timestamp();
            SELECT * INTO v_account FROM users u
            WHERE octet_length(p_claimed) <= 256 AND lower(u.username) = lower(p_claimed);
            -- The (username, address) pair: p_pair_limit failures within the window.
            v_wait := greatest(v_wait, extract(epoch FROM (
                SELECT f.at FROM login_failures f
                WHERE f.username = v_key AND f.address = p_address AND f.at > v_now - p_window * interval '1 second'
                ORDER BY f.at DESC OFFSET p_pair_limit - 1 LIMIT 1) + p_window * interval '1 second' - v_now)::float8);
            IF v_account.id IS NOT NULL THEN
                v_known := EXISTS (
                    SELECT 1 FROM login_known_origins o
                    WHERE o.user_id = v_account.id AND o.kind = 'address' AND o.origin = p_address
                      AND o.last_success_at > v_now - p_known_for * interval '1 second');
            END IF;
            IF NOT v_known THEN
                -- The address, over every username (password spraying).
                v_wait := greatest(v_wait, extract(epoch FROM (
                    SELECT f.at FROM login_failures f
                    WHERE f.address = p_address AND f.at > v_now - p_window * interval '1 second'
                    ORDER BY f.at DESC OFFSET p_address_limit - 1 LIMIT 1) + p_window * interval '1 second' - v_now)::float8);
                -- The username, over every address: the exponential backoff.
                SELECT count(*), max(f.at) INTO v_failures, v_latest FROM login_failures f
                WHERE f.username = v_key AND f.at > v_now - p_backoff_window * interval '1 second';
                IF v_failures >= p_backoff_threshold THEN
                    v_wait := greatest(v_wait, extract(epoch FROM v_latest - v_now)::float8
                        + least(p_backoff_max,
                                p_backoff_base * (2::float8 ^ least(v_failures - p_backoff_threshold, p_max_doublings))));
                END IF;
            END IF;
            IF v_wait > 0 THEN
                RETURN QUERY SELECT NULL::bigint, v_wait, v_key, v_account.id, v_account.name, v_account.username,
                                    v_account.password_hash;
                RETURN;
            END IF;
            INSERT INTO login_failures (username, address, at) VALUES (v_key, p_address, v_now) RETURNING id INTO v_attempt;
            RETURN QUERY SELECT v_attempt, NULL::float8, v_key, v_account.id, v_account.name, v_account.username,
                                v_account.password_hash;
        END
        $$
        """
}
