import Postgres

extension TILMigrations {
    /// Passkeys (issue 20, `Sources/App/Passkeys`):
    ///
    /// - `passkeys`: one WebAuthn credential of a user, as registration verified it: its id
    ///   (unique across users: an authenticator never reuses one), its COSE public key and
    ///   algorithm, the signature counter, transports, the backup flags and the attestation
    ///   format. `name` is the owner's label for it.
    /// - `webauthn_challenges`: a ceremony's challenge, stored as its SHA-256 only, single-use
    ///   (found by the digest of the challenge in clientDataJSON and deleted by the same
    ///   statement) and living 5 minutes. `user_id` ties a registration, or a login that named
    ///   its user, to that user; `named` marks a login that named a user, so that its challenge
    ///   takes only that user's passkeys even when the name is no account's (an unknown name's
    ///   challenge taking any passkey would tell who exists); `mfa_digest` ties a second-factor
    ///   ceremony to its mfaToken.
    static let passkeysSchema = Migration(
        name: "PasskeysSchema",
        prepare: [
            """
            CREATE TABLE passkeys (
                id uuid PRIMARY KEY,
                user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                credential_id bytea NOT NULL UNIQUE,
                public_key bytea NOT NULL,
                algorithm int NOT NULL,
                sign_count bigint NOT NULL,
                transports text[] NOT NULL,
                backup_eligible boolean NOT NULL,
                backed_up boolean NOT NULL,
                attestation_format text NOT NULL,
                name text NOT NULL,
                created_at timestamptz NOT NULL DEFAULT now(),
                last_used_at timestamptz,
                seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE
            )
            """,
            "CREATE INDEX passkeys_user_id ON passkeys (user_id)",
            """
            CREATE TABLE webauthn_challenges (
                digest text PRIMARY KEY,
                purpose text NOT NULL CHECK (purpose IN ('registration', 'authentication')),
                user_id uuid REFERENCES users (id) ON DELETE CASCADE,
                mfa_digest text,
                named boolean NOT NULL DEFAULT false,
                expires_at timestamptz NOT NULL,
                created_at timestamptz NOT NULL DEFAULT now()
            )
            """,
            "CREATE INDEX webauthn_challenges_expires_at ON webauthn_challenges (expires_at)",
            "CREATE INDEX webauthn_challenges_user_id ON webauthn_challenges (user_id)",
        ],
        revert: ["DROP TABLE webauthn_challenges", "DROP TABLE passkeys"])

    /// The address that asked for a login's challenge, so one address holds at most
    /// `WebAuthnChallenges.livePerAddress` live ones (anyone may ask for login options).
    static let passkeyChallengeAddresses = Migration(
        name: "PasskeyChallengeAddresses",
        prepare: [
            "ALTER TABLE webauthn_challenges ADD COLUMN requested_from text",
            "CREATE INDEX webauthn_challenges_requested_from ON webauthn_challenges (requested_from) WHERE requested_from IS NOT NULL",
        ],
        revert: ["ALTER TABLE webauthn_challenges DROP COLUMN requested_from"])
}
