import Postgres

extension TILMigrations {
    /// Usernames unique ignoring case, stored in NFC (see `UsernameRules`).
    ///
    /// Applies to a database made by the earlier migrations: existing usernames are brought
    /// to NFC, then the unique index on `lower(username)` is built — it also serves the login
    /// lookup. If two existing users differ only in case or normalisation form, the index
    /// cannot be built: the migration fails (unique violation) and changes nothing, so an
    /// operator can rename one of them first. The original `UNIQUE (username)` constraint
    /// stays: it is implied by the new index, and `CreateAdminUser` names it in `ON CONFLICT`.
    static let uniqueUsernamesIgnoringCase = Migration(
        name: "UniqueUsernamesIgnoringCase",
        prepare: [
            "UPDATE users SET username = normalize(username, NFC) WHERE username IS NOT NFC NORMALIZED",
            "CREATE UNIQUE INDEX users_username_lower ON users (lower(username))",
        ],
        revert: ["DROP INDEX users_username_lower"])
}
