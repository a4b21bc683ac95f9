import Foundation

/// Credentials from `Authorization: Basic base64(user:password)` (RFC 7617).
public struct BasicAuthorization: Sendable, Equatable {
    public let username: String
    public let password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

extension HTTPHeaders {
    /// Basic credentials, or nil when absent or malformed (bad base64, no colon, not UTF-8, too
    /// long, or holding a NUL — which C code would cut short, logging in a truncated name).
    /// The application answers a NUL with a 400 before any authenticator runs.
    public var basicAuthorization: BasicAuthorization? {
        guard let decoded = decodedBasicCredentials, !decoded.utf8.contains(0),
              let colon = decoded.firstIndex(of: ":")
        else { return nil }
        return BasicAuthorization(
            username: String(decoded[..<colon]), password: String(decoded[decoded.index(after: colon)...]))
    }

    /// True when Basic credentials decode to text holding a NUL.
    var basicCredentialsContainNUL: Bool {
        decodedBasicCredentials?.utf8.contains(0) ?? false
    }

    /// `user:password` as sent, base64-decoded, or nil when absent, too long or not UTF-8.
    private var decodedBasicCredentials: String? {
        guard let encoded = authorization(scheme: "Basic"), encoded.utf8.count <= 1024,
              let data = Data(base64Encoded: encoded)
        else { return nil }
        return String(data: data, encoding: .utf8)
    }

    /// Whatever follows `Bearer` when the Authorization header uses that scheme, even empty or
    /// oversized (a credential sent but malformed, which deserves `invalid_token` rather than
    /// silence: `BearerToken(_:)` tells the two apart); nil without the header or with another
    /// scheme.
    public var bearerCredential: String? { authorization(scheme: "Bearer") }

    /// The credentials after `scheme ` in the Authorization header (scheme matched
    /// case-insensitively); empty when only the scheme was sent.
    private func authorization(scheme: String) -> String? {
        guard let value = self["Authorization"] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard let first = parts.first, String(first).equalsASCIICaseInsensitive(scheme) else { return nil }
        return parts.count == 2 ? parts[1].trimmingCharacters(in: " \t") : ""
    }
}
