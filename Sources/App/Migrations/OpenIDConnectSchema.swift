import Postgres

extension TILMigrations {
    /// What OpenID Connect adds (issue 19): an authorization code remembers the `nonce` to put
    /// in its ID token, and the `max_age` and `prompt` it was asked with; an OAuth session
    /// remembers when its user signed in (`auth_time`), so a refreshed ID token carries the
    /// same; a client may ask for ES256 ID tokens (`id_token_signed_response_alg`).
    static let openIDConnectSchema = Migration(
        name: "OpenIDConnectSchema",
        prepare: [
            "ALTER TABLE oauth_codes ADD COLUMN nonce text, ADD COLUMN max_age integer, ADD COLUMN prompt text",
            "ALTER TABLE sessions ADD COLUMN auth_time timestamptz",
            """
            ALTER TABLE oauth_clients ADD COLUMN id_token_signed_response_alg text NOT NULL DEFAULT 'RS256'
                CHECK (id_token_signed_response_alg IN ('RS256', 'ES256'))
            """,
        ],
        revert: [
            "ALTER TABLE oauth_clients DROP COLUMN id_token_signed_response_alg",
            "ALTER TABLE sessions DROP COLUMN auth_time",
            "ALTER TABLE oauth_codes DROP COLUMN prompt, DROP COLUMN max_age, DROP COLUMN nonce",
        ])
}
