/// Why OpenSSL could not make, read or use a key.
public enum OpenSSLError: Error, Equatable, Sendable, CustomStringConvertible {
    /// OpenSSL failed where it should not (allocation): the call named.
    case failed(String)
    /// OpenSSL refused the values it was given (a point off the curve, a malformed DER key).
    case refused(String)

    public var description: String {
        switch self {
        case .failed(let call): "OpenSSL \(call) failed"
        case .refused(let why): why
        }
    }
}
