import Foundation
import Postgres
import Web

/// How many verification mails may go out, over a sliding `window`: per account (a person
/// resending now and then), per client address (one machine working through many accounts)
/// and per recipient (many accounts, or changes back and forth, aimed at one inbox). Past any
/// limit: 429 with `Retry-After`, the seconds until the oldest counted send leaves the window.
///
/// Counted in `email_sends`, so every process shares it, and exact under concurrency: the
/// check takes a transaction-scoped advisory lock per account, then per client address, then
/// per recipient (always in that order, so two requests never wait on each other in a
/// cycle), counts, and records the send in the same transaction as the mail it admits.
enum EmailSendThrottle {
    static let window: Duration = .seconds(3600)
    static let perAccount = 5
    static let perAddress = 20
    static let perRecipient = 5

    /// Admits one more mail to `recipient` for `userID` asked from `address` on `transaction`,
    /// recording it; throws the 429 when a limit is reached (nothing recorded).
    static func admit(userID: UUID, address: String, recipient: String, on transaction: PostgresTransaction) async throws {
        try await transaction.execute("""
            SELECT pg_advisory_xact_lock(21, hashtext(\(userID.uuidString))),
                   pg_advisory_xact_lock(22, hashtext(\(address))),
                   pg_advisory_xact_lock(23, hashtext(lower(\(recipient))))
            """)
        let windowStart: PostgresQuery = "(clock_timestamp() - \(window.seconds) * interval '1 second')"
        let row = try await transaction.query("""
            WITH counted AS (
                SELECT user_id = \(userID) AS by_account, address = \(address) AS by_address,
                       lower(recipient) = lower(\(recipient)) AS by_recipient, sent_at
                FROM email_sends
                WHERE (user_id = \(userID) OR address = \(address) OR lower(recipient) = lower(\(recipient))) AND sent_at > \(windowStart)
            )
            SELECT count(*) FILTER (WHERE by_account)::int AS accounts, count(*) FILTER (WHERE by_address)::int AS addresses,
                   count(*) FILTER (WHERE by_recipient)::int AS recipients,
                   extract(epoch FROM min(sent_at) FILTER (WHERE by_account) - \(windowStart))::float8 AS account_wait,
                   extract(epoch FROM min(sent_at) FILTER (WHERE by_address) - \(windowStart))::float8 AS address_wait,
                   extract(epoch FROM min(sent_at) FILTER (WHERE by_recipient) - \(windowStart))::float8 AS recipient_wait
            FROM counted
            """).first
        var waits: [Double] = []
        for (count, limit, wait) in [("accounts", perAccount, "account_wait"), ("addresses", perAddress, "address_wait"),
                                     ("recipients", perRecipient, "recipient_wait")] {
            guard try row?.decode(column: count, as: Int.self) ?? 0 >= limit else { continue }
            waits.append(try row?.decode(column: wait, as: Double?.self) ?? window.seconds)
        }
        if let longest = waits.max() { throw Abort.tooMany("verification mails", retryAfter: longest) }
        try await transaction.execute("""
            INSERT INTO email_sends (user_id, address, recipient, sent_at) VALUES (\(userID), \(address), \(recipient), clock_timestamp())
            """)
    }

    /// Records a send without judging it: a new account's first mail, which its creation causes.
    static func record(userID: UUID, address: String, recipient: String) -> PostgresQuery {
        "INSERT INTO email_sends (user_id, address, recipient) VALUES (\(userID), \(address), \(recipient))"
    }
}
