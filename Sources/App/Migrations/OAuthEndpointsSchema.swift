import Postgres

extension TILMigrations {
    /// What the OAuth endpoints add to `OAuthSchema` (issue 18): where an open registration came
    /// from, so registrations are throttled per address across processes; access tokens
    /// without a user, as `client_credentials` issues them (their session has none either); and
    /// an access token's own scopes, narrower than its session's when a refresh asked for less
    /// (RFC 6749 §6; NULL: the session's).
    static let oauthEndpointsSchema = Migration(
        name: "OAuthEndpointsSchema",
        prepare: [
            "ALTER TABLE oauth_clients ADD COLUMN registered_from text",
            """
            CREATE INDEX oauth_clients_registered_from ON oauth_clients (registered_from, created_at)
            WHERE registered_from IS NOT NULL
            """,
            "ALTER TABLE tokens ALTER COLUMN user_id DROP NOT NULL",
            "ALTER TABLE tokens ADD COLUMN scopes text",
        ],
        revert: [
            "ALTER TABLE tokens DROP COLUMN scopes",
            "DELETE FROM tokens WHERE user_id IS NULL",
            "ALTER TABLE tokens ALTER COLUMN user_id SET NOT NULL",
            "DROP INDEX oauth_clients_registered_from",
            "ALTER TABLE oauth_clients DROP COLUMN registered_from",
        ])
}
