import Foundation

/// Credentials a test request carries in its `Authorization` header.
public enum TestAuth: Sendable, Equatable {
    /// HTTP Basic: `Basic base64(username:password)`.
    case basic(String, String)
    /// A bearer token: `Bearer <token>`.
    case bearer(String)

    /// The `Authorization` header value.
    public var headerValue: String {
        switch self {
        case .basic(let username, let password): "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
        case .bearer(let token): "Bearer " + token
        }
    }
}
