import Foundation
import Mail
import Threads

/// Where the sender hands a message: an SMTP server (`SMTPTransport`) or a directory of
/// `.eml` files (`MailDirectory`). `deliver` returns only once the message is safely the
/// other side's; the sender deletes its row after that, never before.
protocol MailTransport: Sendable {
    /// Delivers `message`; a note for the log line (the file written), if any.
    func deliver(_ message: MailMessage, kind: String) async throws(DeliveryFailure) -> String?

    /// Ends a delivery under way and every later one: the server is shutting down.
    func abort()
}

/// SMTP through libcurl (`SMTPClient`), on a thread of its own: a conversation blocks for as
/// long as the relay takes, which must never be an event loop's time.
struct SMTPTransport: MailTransport {
    let client: SMTPClient

    /// One thread per process for every sender's SMTP conversations: messages go one at a
    /// time (a relay takes them as fast as that), and the thread lives as long as the process.
    static let thread = WorkerPool(threadCount: 1)

    func deliver(_ message: MailMessage, kind: String) async throws(DeliveryFailure) -> String? {
        let client = client
        do {
            try await Self.thread.run { try client.send(message) }
            return nil
        } catch let error as SMTPError {
            throw DeliveryFailure(error)
        } catch {
            throw DeliveryFailure(scope: .cancelled, detail: "stopped before the message was sent")
        }
    }

    func abort() { client.abort() }
}
