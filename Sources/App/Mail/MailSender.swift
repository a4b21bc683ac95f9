import Crypt
import Foundation
import Logging
import Mail
import Postgres

/// The sender loop: delivers what the outbox holds and removes each row only once the relay
/// has it (its 250 to the end of data, or the file written), so a crash or a restart loses
/// nothing; a message that went out and whose row survived a crash goes again with the same
/// `Message-ID` (`<row id@MAIL_FROM's domain>`) and the same bytes, which is how a retry is
/// recognised.
///
/// Every process runs one. Rows are claimed under a lease (`OutboxClaims`), not held in an
/// open transaction: a slow relay holds no database connection, a process killed while
/// sending frees its rows when their lease ends, and two processes never send one row at the
/// same time. A message refused for now is retried after its backoff, a relay that cannot be
/// reached pauses the sender (`MailBackoff`); a refusal for good (5xx) or a message that
/// cannot be written is given up at once, anything else after five days. Rows
/// are deleted, not marked sent: the body holds a link's token in clear, and the audit log
/// (`mail.sent`) is the record of what went out.
struct MailSender: Sendable {
    let claims: OutboxClaims
    let transport: any MailTransport
    let from: MailFrom
    let backoff: MailBackoff
    let audit: AuditLog
    let logger: Logger
    /// The longest one delivery can take (libcurl's transfer plus its wait for the last reply):
    /// a claimed row is sent only while that still fits in its lease.
    let deliveryBound: Duration
    /// Rows claimed per pass; a full batch is followed by another pass at once.
    var batchSize = 10

    /// What one pass did.
    struct Pass: Sendable, Equatable {
        var claimed = 0
        var sent = 0
        var retried = 0
        var givenUp = 0
        var decoys = 0
        /// The pass ended early: the relay, not a message, failed (or the sender is stopping).
        var stoppedEarly = false
        /// The relay could not be reached, or refused the connection.
        var relayFailed = false
    }

    /// Passes until cancelled: at once again after a full batch, after `interval` when the
    /// outbox had no more, after a growing pause while the relay (or the database) fails.
    /// A database that is down is logged at the first failed pass, then at the 2nd, 4th, 8th…
    func run(every interval: Duration) async {
        var failures = 0
        var failedPasses = 0
        while !Task.isCancelled {
            var pass = Pass()
            do {
                pass = try await sendOnce()
                failedPasses = 0
            } catch {
                failedPasses += 1
                if failedPasses.nonzeroBitCount == 1 {
                    logger.warning("mail pass failed", metadata: ["error": "\(error)", "passes-failed": .stringConvertible(failedPasses)])
                }
                pass.relayFailed = true
            }
            failures = pass.relayFailed ? failures + 1 : 0
            if pass.claimed == batchSize, !pass.stoppedEarly { continue }
            try? await Task.sleep(for: failures > 0 ? max(interval, backoff.pause(afterRelayFailures: failures)) : interval)
        }
    }

    /// Deletes decoys, then claims up to `batchSize` due messages and delivers them in order.
    /// `asOf`: the time the pass judges by (nil: the database's clock), for tests.
    @discardableResult
    func sendOnce(asOf: Date? = nil) async throws -> Pass {
        var pass = Pass()
        pass.decoys = try await claims.deleteDecoys(limit: 1000)
        let token = SecureRandom.uuid()
        let rows = try await claims.claim(limit: batchSize, token: token, asOf: asOf)
        pass.claimed = rows.count
        let claimedAt = ContinuousClock.now
        for row in rows {
            // Row k's lease ends k leases after the claim: past that another process may have it.
            guard !Task.isCancelled, claimedAt.duration(to: .now) + deliveryBound < claims.lease * row.place else {
                pass.stoppedEarly = true
                break
            }
            do {
                let note = try await transport.deliver(try message(for: row), kind: row.kind)
                try await claims.delivered(row.id)
                pass.sent += 1
                audit.record(.mailSent, mail: row.id, kind: row.kind, recipient: row.recipient, attempts: row.attempts + 1, detail: note)
            } catch let failure as DeliveryFailure {
                if failure.scope == .cancelled {
                    pass.stoppedEarly = true
                    break
                }
                try await settle(row, failure, token: token, asOf: asOf, pass: &pass)
                if failure.scope == .server {
                    pass.stoppedEarly = true
                    pass.relayFailed = true
                    break
                }
            }
        }
        if pass.sent + pass.retried + pass.givenUp < rows.count { try await claims.release(token: token) }
        return pass
    }

    /// A failed row: given up (permanent, or queued longer than the backoff allows); else due
    /// again at once when the relay failed (the sender pauses), after its backoff when only
    /// this message was refused.
    private func settle(_ row: OutboxClaims.Row, _ failure: DeliveryFailure, token: UUID, asOf: Date?, pass: inout Pass) async throws {
        let age = (asOf ?? Date()).timeIntervalSince(row.createdAt)
        if failure.permanent || age >= backoff.giveUpAfter.seconds {
            try await claims.giveUp(row.id, token: token)
            pass.givenUp += 1
            audit.record(.mailFailed, mail: row.id, kind: row.kind, recipient: row.recipient, attempts: row.attempts + 1, detail: failure.detail)
            return
        }
        var metadata: Logger.Metadata = [
            "mail-id": .string(row.id.uuidString.lowercased()), "kind": .string(row.kind), "attempts": .stringConvertible(row.attempts + 1),
            "error": .string(failure.detail),
        ]
        if failure.scope == .server {
            try await claims.relayFailed(row.id, token: token, error: failure.detail)
            logger.warning("mail relay failed; messages wait for it", metadata: metadata)
        } else {
            let delay = backoff.delay(afterFailure: row.attempts + 1)
            try await claims.retry(row.id, token: token, after: delay, error: failure.detail, asOf: asOf)
            metadata["retry-in"] = .string("\(Int(delay.seconds)) s")
            logger.warning("mail refused for now; will retry", metadata: metadata)
        }
        pass.retried += 1
    }

    /// The row as a message: its id as the Message-ID, its queueing time as the Date, so
    /// every attempt sends the same bytes. A recipient SMTP cannot carry is given up.
    private func message(for row: OutboxClaims.Row) throws(DeliveryFailure) -> MailMessage {
        do {
            return MailMessage(
                from: from, to: try MailAddress(row.recipient, header: "To"), subject: row.subject, text: row.text, html: row.html,
                messageID: "\(row.id.uuidString.lowercased())@\(messageIDDomain)", date: row.createdAt)
        } catch {
            throw DeliveryFailure(scope: .message, permanent: true, detail: error.description)
        }
    }

    /// The right side of every Message-ID: `MAIL_FROM`'s domain.
    var messageIDDomain: String {
        String(from.address.address.split(separator: "@").last ?? "localhost")
    }
}
