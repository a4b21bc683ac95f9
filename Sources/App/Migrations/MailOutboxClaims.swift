import Postgres

extension TILMigrations {
    /// The sender's lease on a message (`MailSender`): `claimed_until` is when a process that
    /// claimed the row and died stops holding it, so no transaction stays open across an SMTP
    /// conversation; `claimed_by` is the claiming pass's random token, so a pass whose lease
    /// ran out cannot undo another's newer claim. Decoys get a partial index of their own: every pass deletes them, and
    /// most passes find none.
    static let mailOutboxClaims = Migration(
        name: "MailOutboxClaims",
        prepare: [
            "ALTER TABLE mail_outbox ADD COLUMN claimed_until timestamptz, ADD COLUMN claimed_by uuid",
            "CREATE INDEX mail_outbox_decoys ON mail_outbox (seq) WHERE decoy",
        ],
        revert: [
            "DROP INDEX mail_outbox_decoys",
            "ALTER TABLE mail_outbox DROP COLUMN claimed_until, DROP COLUMN claimed_by",
        ])
}
