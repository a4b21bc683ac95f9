import Crypt
import Postgres

/// The transactional outbox (issue 21): a message is a row written by the same transaction as
/// the change that causes it, so a rolled-back change sends nothing and a committed one cannot
/// lose its message to a crash. The sender loop delivers rows and removes them only after the
/// SMTP server's 250; the row id is the stable `Message-ID`, so a retry is recognisable.
///
/// ```swift
/// try await db.withTransaction { transaction in
///     try await transaction.execute(change)
///     try await transaction.execute(MailOutbox.enqueue(mail))
/// }
/// ```
/// Or spliced into the change's own statement as a CTE (one round trip):
/// `"WITH changed AS (…), queued AS (\(MailOutbox.enqueue(mail))) SELECT …"`.
enum MailOutbox {
    /// The statement that queues `mail`.
    static func enqueue(_ mail: OutgoingMail) -> PostgresQuery {
        """
        INSERT INTO mail_outbox (id, kind, recipient, subject, text_body, html_body)
        VALUES (\(SecureRandom.uuid()), \(mail.kind.rawValue), \(mail.recipient), \(mail.subject), \(mail.text), \(mail.html))
        """
    }

    /// A row that is never sent: the answer for an unknown account does the same work (one
    /// insert of the same shape) as the answer for a known one, so timing tells nothing.
    /// The sender deletes decoys unsent.
    static func enqueueDecoy(kind: MailKind) -> PostgresQuery {
        """
        INSERT INTO mail_outbox (id, kind, recipient, subject, text_body, html_body, decoy)
        VALUES (\(SecureRandom.uuid()), \(kind.rawValue), '', '', '', '', true)
        """
    }
}
