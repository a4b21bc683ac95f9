/// One message the sink accepted (it answered 250 to its end of data): the envelope, the
/// message as sent (dot-stuffing undone) and how the connection that carried it was set up.
public struct ReceivedMail: Sendable {
    /// `MAIL FROM`'s address, without angle brackets or parameters.
    public let sender: String
    /// `RCPT TO`'s addresses, in order.
    public let recipients: [String]
    /// The `MAIL FROM` command's parameters (`SMTPUTF8`, `SIZE=…`), as sent.
    public let mailParameters: [String]
    /// The message's bytes, CRLF line ends kept.
    public let data: [UInt8]
    /// The message travelled over TLS (after STARTTLS).
    public let overTLS: Bool
    /// The user name the client logged in with (`AUTH PLAIN` or `LOGIN`); nil without AUTH.
    public let username: String?
    public let password: String?

    /// The message parsed: headers, subject, and the text and HTML parts decoded.
    public var parsed: ParsedMail { ParsedMail(data) }
}

/// What the sink answers to a message's end of data.
public enum SinkReply: Sendable, Equatable {
    /// 250: accepted and kept.
    case accept
    /// A refusal (`451` temporary, `554` permanent): not kept.
    case refuse(code: Int, text: String)
    /// No answer at all, until the client gives up and closes: a server that stopped.
    case hang
}
