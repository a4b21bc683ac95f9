import Postgres

extension TILMigrations {
    /// OpenID Connect's signing keys (issue 19; `SigningKeyStore`): the private key sealed with
    /// `SECRET_KEY` (base64url of `AtRestCipher`'s bytes, bound to the kid), the public JWK as
    /// JSON, and when the key starts signing. Retirement is not stored: a key is retired from
    /// the moment a newer key of its algorithm is active, and pruned a token lifetime later.
    static let signingKeysSchema = Migration(
        name: "SigningKeys",
        prepare: [
            """
            CREATE TABLE signing_keys (
                kid text PRIMARY KEY,
                alg text NOT NULL CHECK (alg IN ('RS256', 'ES256')),
                private_key_sealed text NOT NULL,
                public_jwk text NOT NULL,
                created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
                activates_at timestamptz NOT NULL,
                seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE
            )
            """,
            "CREATE INDEX signing_keys_alg_activation ON signing_keys (alg, activates_at, seq)",
        ],
        revert: ["DROP TABLE signing_keys"])
}
