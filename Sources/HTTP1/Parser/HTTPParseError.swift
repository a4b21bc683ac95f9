/// Why a request cannot be served. Each maps to the status the connection answers with
/// before it closes (a parse error leaves the stream in an unknown state).
public enum HTTPParseError: Error, Equatable, Sendable {
    case badRequest(String)
    /// The request line is longer than `maxRequestLineBytes`.
    case uriTooLong
    /// The header section is larger than `maxHeaderBytes` or has more than `maxHeaderCount` fields.
    case headerFieldsTooLarge
    /// The body is larger than `maxBodyBytes`.
    case contentTooLarge
    /// A well-formed version other than HTTP/1.0 or HTTP/1.1.
    case versionNotSupported

    public var status: HTTPStatus {
        switch self {
        case .badRequest: .badRequest
        case .uriTooLong: .uriTooLong
        case .headerFieldsTooLarge: .requestHeaderFieldsTooLarge
        case .contentTooLarge: .payloadTooLarge
        case .versionNotSupported: .httpVersionNotSupported
        }
    }

    /// A short explanation for the JSON error body (never echoes request bytes).
    public var reason: String {
        switch self {
        case .badRequest(let reason): reason
        case .uriTooLong: "Request line too long."
        case .headerFieldsTooLarge: "Request header fields too large."
        case .contentTooLarge: "Request body too large."
        case .versionNotSupported: "HTTP version not supported."
        }
    }
}
