/// Why a message could not be written: a header value that would break out of its line, or
/// an address SMTP cannot carry. Raised before anything is sent, so a bad value never reaches
/// a server as an extra header or an extra SMTP command (header and command injection).
public enum MailHeaderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// CR, LF or another control character in the named header's value.
    case controlCharacter(header: String)
    /// The named header's value is longer than one header line may be (RFC 5322: 998 bytes).
    case tooLong(header: String)
    /// Not one `local@domain` that an SMTP envelope can carry.
    case badAddress(header: String)

    public var description: String {
        switch self {
        case .controlCharacter(let header): "the \(header) header holds a control character (CR, LF or similar)"
        case .tooLong(let header): "the \(header) header is longer than a header line may be"
        case .badAddress(let header): "the \(header) address is not one local@domain address"
        }
    }
}
