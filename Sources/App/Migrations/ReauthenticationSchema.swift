import Postgres

extension TILMigrations {
    /// What re-authentication (issue 21, RFC 9470) needs of the schema: every session that a
    /// person signed in to records when (`sessions.auth_time`; until now only OAuth sessions
    /// did), and a device code remembers the auth time of the browser session that approved it,
    /// so the device's session inherits it. Sessions from before this migration take their
    /// start as their auth time (a Basic or browser login authenticated exactly then); an OAuth
    /// session without one, or a `pat` session, has none and is never recent.
    static let reauthenticationSchema = Migration(
        name: "ReauthenticationSchema",
        prepare: [
            "UPDATE sessions SET auth_time = created_at WHERE auth_time IS NULL AND kind IN ('login', 'browser')",
            "ALTER TABLE oauth_device_codes ADD COLUMN auth_time timestamptz",
        ],
        revert: ["ALTER TABLE oauth_device_codes DROP COLUMN auth_time"])
}
