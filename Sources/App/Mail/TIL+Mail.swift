package import Foundation
import Logging
import Mail
public import Web

extension TIL {
    /// How often an idle sender looks for due messages: a queued message goes out within about
    /// a second (one indexed query per process per second while idle).
    static let mailPollInterval: Duration = .seconds(1)

    /// Starts this process's sender loop (`MailSender`), stopped when `app` shuts down: the
    /// delivery under way is aborted (its message goes again later), the loop awaited, before
    /// the database closes. `serve` calls it; in-process tests do not, and deliver what they
    /// queued with `deliverQueuedMail()`. Production without `SMTP_URL` starts nothing:
    /// messages stay queued until a server with a relay runs.
    public func startMailSender(_ app: Application) throws {
        guard let sender = try mailSender() else {
            logger.notice("mail not configured: messages stay queued and the routes that must send answer 503 (set SMTP_URL and MAIL_FROM)")
            return
        }
        let sending = Task { await sender.run(every: Self.mailPollInterval) }
        app.onShutdown {
            sender.transport.abort()
            sending.cancel()
            await sending.value
        }
    }

    /// Delivers what is due now, one pass, and returns how many messages went out: for tests,
    /// whose apps run no sender loop. `asOf` judges due-ness and backoff by another time.
    package func deliverQueuedMail(asOf: Date? = nil) async throws -> Int {
        guard let sender = try mailSender() else { return 0 }
        return try await sender.sendOnce(asOf: asOf).sent
    }

    /// The sender over this app's database and `configuration.mail`; nil when mail is not
    /// configured. `transport` replaces the configured one (tests).
    func mailSender(transport: (any MailTransport)? = nil) throws -> MailSender? {
        let settings = configuration.mail
        let chosen: any MailTransport
        switch (transport, settings.delivery) {
        case (let transport?, _): chosen = transport
        case (nil, .smtp(let endpoint)): chosen = SMTPTransport(client: SMTPClient(server: endpoint.server(settings)))
        case (nil, .files(let directory)): chosen = MailDirectory(directory: directory, logger: logger, environment: configuration.environment)
        case (nil, .notConfigured): return nil
        }
        // libcurl's transfer (≤ SMTP_TIMEOUT) then its wait for the last reply (≤ SMTP_TIMEOUT again),
        // plus a thread hop; the lease adds the database round trips and scheduling around it.
        let deliveryBound = settings.timeout * 2 + .seconds(2)
        return MailSender(
            claims: OutboxClaims(db: db, lease: deliveryBound + .seconds(3)), transport: chosen, from: try settings.sender,
            backoff: MailBackoff(), audit: AuditLog(logger: logger), logger: logger, deliveryBound: deliveryBound)
    }
}
