/// Why an SMTP attempt did not end in the server's 250 to the message: what failed and the
/// server's last reply code, in words fit for a log and a database column (libcurl's
/// message, which holds no credentials; never the message's content).
public struct SMTPError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No connection: refused, unreachable, name not resolved.
        case connect
        /// TLS failed or was refused: no STARTTLS where it is required, an untrusted or
        /// mismatched certificate, a failed handshake.
        case tls
        /// The server refused the login.
        case authentication
        /// The server answered with a refusal (4xx or 5xx) at `Stage`.
        case refused(Stage)
        /// The connect or message timeout passed (a server that stopped answering).
        case timeout
        /// The message could not be written (`MailHeaderError`): nothing was sent.
        case unsendable
        /// The caller gave up (`SMTPCancellation`): the server may or may not have the message.
        case cancelled
        /// Anything else libcurl reports.
        case other
    }

    /// Which command the server refused.
    public enum Stage: Sendable, Equatable {
        /// `MAIL FROM`: this server will not take mail from this sender (its configuration, not the message).
        case sender
        /// `RCPT TO`: this recipient.
        case recipient
        /// `DATA` or the end of the data: this message.
        case message
    }

    public let kind: Kind
    /// The SMTP server's last reply code (`451`, `550`), when one came.
    public let reply: Int?
    public let detail: String

    public init(kind: Kind, reply: Int? = nil, detail: String) {
        self.kind = kind
        self.reply = reply
        self.detail = detail
    }

    /// A 5xx reply: the server said it will not take this message as it is.
    public var isPermanent: Bool { (reply ?? 0) >= 500 && (reply ?? 0) < 600 }

    public var description: String {
        reply.map { "\(detail) (server reply \($0))" } ?? detail
    }
}
