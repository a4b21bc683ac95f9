import Crypt
import Postgres

/// TIL's schema, in order. Every table has a `seq` identity column: UUID ids do not sort by
/// time, and lists come back in creation order.
enum TILMigrations {
    static func all(adminPassword: String, hasher: BcryptHasher) -> [Migration] {
        [createUsers, createAcronyms, createCategories, createAcronymCategories, createTokens,
         seedAdmin(password: adminPassword, hasher: hasher), uniqueUsernamesIgnoringCase,
         createSessions, createRefreshTokens, createLoginFailures, keysetIndexes, loginAttempts, refreshTokenRetention,
         sessionsRevokedIndex, oauthSchema, oauthEndpointsSchema, signingKeysSchema, deviceAuthorizationSchema,
         nullSkippingIndexes, openIDConnectSchema, secondFactorSchema, passkeysSchema,
         passkeyChallengeAddresses, accountMailSchema, reauthenticationSchema, passwordResets, mailOutboxClaims,
         emailVerifications, personalAccessTokens]
    }

    static let createUsers = Migration(
        name: "CreateUser",
        prepare: ["""
            CREATE TABLE users (
                id uuid PRIMARY KEY,
                name text NOT NULL,
                username text NOT NULL UNIQUE,
                password_hash text NOT NULL,
                seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE
            )
            """],
        revert: ["DROP TABLE users"])

    static let createAcronyms = Migration(
        name: "CreateAcronym",
        prepare: [
            """
            CREATE TABLE acronyms (
                id uuid PRIMARY KEY,
                short text NOT NULL,
                long text NOT NULL,
                user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE
            )
            """,
            "CREATE INDEX acronyms_user_id ON acronyms (user_id)",
            "CREATE INDEX acronyms_short ON acronyms (short)",
            "CREATE INDEX acronyms_long ON acronyms (long)",
        ],
        revert: ["DROP TABLE acronyms"])

    static let createCategories = Migration(
        name: "CreateCategory",
        prepare: ["""
            CREATE TABLE categories (
                id uuid PRIMARY KEY,
                name text NOT NULL,
                seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE
            )
            """],
        revert: ["DROP TABLE categories"])

    static let createAcronymCategories = Migration(
        name: "CreateAcronymCategoryPivot",
        prepare: [
            """
            CREATE TABLE acronym_category_pivot (
                acronym_id uuid NOT NULL REFERENCES acronyms (id) ON DELETE CASCADE,
                category_id uuid NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
                seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
                PRIMARY KEY (acronym_id, category_id)
            )
            """,
            "CREATE INDEX acronym_category_pivot_category ON acronym_category_pivot (category_id)",
        ],
        revert: ["DROP TABLE acronym_category_pivot"])

    /// Tokens are stored as SHA-256 digests. `expires_at` and `revoked_at` are there so expiry,
    /// refresh and revocation can come later without a schema rewrite (NULL: never / not revoked).
    static let createTokens = Migration(
        name: "CreateToken",
        prepare: [
            """
            CREATE TABLE tokens (
                id uuid PRIMARY KEY,
                digest text NOT NULL UNIQUE,
                user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
                expires_at timestamptz,
                revoked_at timestamptz
            )
            """,
            "CREATE INDEX tokens_user_id ON tokens (user_id)",
        ],
        revert: ["DROP TABLE tokens"])

    /// The book's `admin` user. The hash is computed only when this migration runs.
    static func seedAdmin(password: String, hasher: BcryptHasher) -> Migration {
        Migration(
            name: "CreateAdminUser",
            prepare: { tx in try await insertAdmin(password: password, hasher: hasher, on: tx) },
            revert: { tx in try await tx.execute("DELETE FROM users WHERE username = \("admin")") })
    }

    /// Adds the `admin` user with `password` unless a user of that name exists: the seed
    /// migration's step, and the tests' reseed after they empty the tables.
    static func insertAdmin(password: String, hasher: BcryptHasher, on db: any PostgresQueryable) async throws {
        let hash = try await hasher.hash(password)
        try await db.execute("""
            INSERT INTO users (id, name, username, password_hash)
            VALUES (gen_random_uuid(), \("Admin"), \("admin"), \(hash))
            ON CONFLICT (username) DO NOTHING
            """)
    }
}
