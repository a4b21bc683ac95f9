import Postgres

extension TILMigrations {
    /// RFC 8628's device codes (issue 19), and `til-cli`, the built-in client `til login --web`
    /// signs in with.
    ///
    /// A device code is kept by digest. Its user code is stored as typed by nobody: the eight
    /// letters alone (`UserCode.normalized`), unique among pending codes. `interval_seconds`
    /// grows by 5 with every `slow_down` (§3.5), measured from `last_polled_at`. A decision
    /// moves `status` from `pending` to `approved` or `denied` once (with the user who
    /// decided); the token request that redeems an approval moves it to `redeemed` and links
    /// the session it started. `requested_from` is a public client's caller, whose starts are
    /// limited per hour.
    static let deviceAuthorizationSchema = Migration(
        name: "DeviceAuthorization",
        prepare: [
            """
            CREATE TABLE oauth_device_codes (
                digest text PRIMARY KEY,
                user_code text NOT NULL CHECK (user_code ~ '^[BCDFGHJKLMNPQRSTVWXZ]{8}$'),
                client_id text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
                scopes text NOT NULL,
                status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'denied', 'redeemed')),
                user_id uuid REFERENCES users (id) ON DELETE CASCADE,
                interval_seconds integer NOT NULL DEFAULT 5,
                last_polled_at timestamptz,
                created_at timestamptz NOT NULL DEFAULT now(),
                expires_at timestamptz NOT NULL,
                decided_at timestamptz,
                session_id uuid REFERENCES sessions (id) ON DELETE SET NULL,
                requested_from text,
                CHECK ((status = 'pending') = (user_id IS NULL))
            )
            """,
            "CREATE UNIQUE INDEX oauth_device_codes_pending_user_code ON oauth_device_codes (user_code) WHERE status = 'pending'",
            "CREATE INDEX oauth_device_codes_expires_at ON oauth_device_codes (expires_at)",
            """
            CREATE INDEX oauth_device_codes_requested_from ON oauth_device_codes (requested_from, created_at)
            WHERE requested_from IS NOT NULL
            """,
            insertTILCLI,
        ],
        revert: [
            "DROP TABLE oauth_device_codes",
            "DELETE FROM oauth_clients WHERE id = 'til-cli'",
        ])

    /// The built-in client's id.
    static let tilCLIClientID = "til-cli"

    /// `til-cli`: public, trusted (first-party: it may hold `account`), every user scope, the
    /// device grant with refresh tokens, and the code flow on a loopback redirect of any port
    /// (RFC 8252 §7.3, `RedirectURIMatch`). Seeded again if an operator removed it
    /// (`til-server clients remove til-cli` refuses; see docs/OAUTH.md).
    static let insertTILCLI = """
        INSERT INTO oauth_clients (id, name, auth_method, redirect_uris, grant_types, scope, trusted)
        VALUES ('til-cli', 'til command-line tool', 'none', 'http://127.0.0.1/callback',
                'urn:ietf:params:oauth:grant-type:device_code authorization_code refresh_token',
                'acronyms:write categories:write users:write account', true)
        ON CONFLICT (id) DO NOTHING
        """
}
