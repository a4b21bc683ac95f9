/// Why the sink could not start, or a wait for its messages ended without them.
public enum MailSinkError: Error, CustomStringConvertible {
    case socket(String)
    case tls(String)
    /// Fewer messages than awaited arrived in time: how many did.
    case timedOut(expected: Int, received: Int)

    public var description: String {
        switch self {
        case .socket(let text): "mail sink: \(text)"
        case .tls(let text): "mail sink TLS: \(text)"
        case .timedOut(let expected, let received): "mail sink: \(received) of \(expected) messages arrived in time"
        }
    }
}
