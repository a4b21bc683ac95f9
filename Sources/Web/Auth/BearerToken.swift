/// A bearer token (RFC 6750) as a server takes one: not empty, and at most `maxBytes` — longer
/// than any token a server issues, so a longer one is refused unread, never looked up.
///
/// The rule is written here once, for every place a token arrives: an `Authorization: Bearer`
/// header (`HTTPHeaders.bearerCredential`) and a refresh token in a request body alike.
public struct BearerToken: Sendable, Equatable {
    public static let maxBytes = 512

    public let value: String

    /// Nil when `value` is empty or longer than `maxBytes`: a malformed token.
    public init?(_ value: String) {
        guard !value.isEmpty, value.utf8.count <= Self.maxBytes else { return nil }
        self.value = value
    }
}
