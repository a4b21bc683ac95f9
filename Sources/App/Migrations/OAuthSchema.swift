import Postgres

/// The OAuth 2.1 authorization server's schema (issue 18): registered clients, the consent a
/// user gave each one, authorization codes, and what a session now records about how it began.
/// Lists (redirect URIs, grant types, scopes, resources) are space-separated text, as scopes
/// already are: none of their values may contain a space.
extension TILMigrations {
    static let oauthSchema = Migration(
        name: "OAuthSchema",
        prepare: [
            // Only administrators may be granted `clients:write`; the seeded admin is one.
            "ALTER TABLE users ADD COLUMN is_admin boolean NOT NULL DEFAULT false",
            "UPDATE users SET is_admin = true WHERE username = 'admin'",
            // `id` is the public client_id. A public client (`none`) has no secret; a
            // confidential one's secret is kept only as its SHA-256 digest.
            """
            CREATE TABLE oauth_clients (
                id text PRIMARY KEY,
                name text NOT NULL,
                secret_digest text,
                auth_method text NOT NULL
                    CHECK (auth_method IN ('none', 'client_secret_basic', 'client_secret_post')),
                redirect_uris text NOT NULL,
                post_logout_redirect_uris text NOT NULL DEFAULT '',
                grant_types text NOT NULL,
                scope text NOT NULL,
                trusted boolean NOT NULL DEFAULT false,
                registered_by uuid REFERENCES users (id) ON DELETE SET NULL,
                created_at timestamptz NOT NULL DEFAULT now(),
                seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
                CHECK ((auth_method = 'none') = (secret_digest IS NULL))
            )
            """,
            // A session now says how it began: a Basic login (`login`), a login on TIL's own
            // pages (`browser`, its cookie kept as a digest), or an OAuth grant (`oauth`, for a
            // client, and for a named resource when `audience` is set; NULL is TIL's API). A
            // client_credentials session has no user.
            "ALTER TABLE sessions ADD COLUMN kind text NOT NULL DEFAULT 'login' CHECK (kind IN ('login', 'browser', 'oauth'))",
            "ALTER TABLE sessions ADD COLUMN client_id text REFERENCES oauth_clients (id) ON DELETE CASCADE",
            "ALTER TABLE sessions ADD COLUMN audience text",
            "ALTER TABLE sessions ADD COLUMN browser_digest text UNIQUE",
            "ALTER TABLE sessions ALTER COLUMN user_id DROP NOT NULL",
            "ALTER TABLE sessions ADD CHECK (user_id IS NOT NULL OR (kind = 'oauth' AND client_id IS NOT NULL))",
            "ALTER TABLE sessions ADD CHECK ((kind = 'browser') = (browser_digest IS NOT NULL))",
            "ALTER TABLE sessions ADD CHECK ((kind = 'oauth') = (client_id IS NOT NULL))",
            "CREATE INDEX sessions_client_id ON sessions (client_id) WHERE client_id IS NOT NULL",
            // Consent remembered per user and client: a request within these scopes skips the page.
            """
            CREATE TABLE oauth_grants (
                user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                client_id text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
                scopes text NOT NULL,
                created_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (user_id, client_id)
            )
            """,
            // An authorization code, by digest: single use (`redeemed_at`), bound to everything
            // the request said; `session_id` is what its redemption issued, so a second
            // redemption can revoke it (RFC 6749 §4.1.2).
            """
            CREATE TABLE oauth_codes (
                digest text PRIMARY KEY,
                client_id text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
                user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                redirect_uri text NOT NULL,
                redirect_uri_sent boolean NOT NULL,
                code_challenge text NOT NULL,
                scopes text NOT NULL,
                resources text NOT NULL DEFAULT '',
                auth_time timestamptz NOT NULL,
                expires_at timestamptz NOT NULL,
                redeemed_at timestamptz,
                session_id uuid REFERENCES sessions (id) ON DELETE SET NULL
            )
            """,
            "CREATE INDEX oauth_codes_expires_at ON oauth_codes (expires_at)",
        ],
        revert: [
            "DROP TABLE oauth_codes",
            "DROP TABLE oauth_grants",
            "DELETE FROM sessions WHERE user_id IS NULL",
            "ALTER TABLE sessions DROP COLUMN browser_digest, DROP COLUMN audience, DROP COLUMN client_id, DROP COLUMN kind",
            "ALTER TABLE sessions ALTER COLUMN user_id SET NOT NULL",
            "DROP TABLE oauth_clients",
            "ALTER TABLE users DROP COLUMN is_admin",
        ])
}
