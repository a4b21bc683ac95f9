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

/// A token from `Authorization: Bearer <token>` (RFC 6750).
public struct BearerAuthorization: Sendable, Equatable {
    public let token: String

    public init(token: String) { self.token = token }
}

extension HTTPHeaders {
    /// Basic credentials, or nil when absent or malformed (bad base64, no colon, not UTF-8, too long).
    public var basicAuthorization: BasicAuthorization? {
        guard let encoded = authorization(scheme: "Basic"), encoded.utf8.count <= 1024,
              let data = Data(base64Encoded: encoded),
              let decoded = String(data: data, encoding: .utf8),
              let colon = decoded.firstIndex(of: ":")
        else { return nil }
        return BasicAuthorization(
            username: String(decoded[..<colon]), password: String(decoded[decoded.index(after: colon)...]))
    }

    /// The bearer token, or nil when absent, empty or longer than 512 bytes.
    public var bearerAuthorization: BearerAuthorization? {
        guard let token = authorization(scheme: "Bearer"), !token.isEmpty, token.utf8.count <= 512 else { return nil }
        return BearerAuthorization(token: token)
    }

    /// The credentials after `scheme ` in the Authorization header (scheme matched case-insensitively).
    private func authorization(scheme: String) -> String? {
        guard let value = self["Authorization"] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, String(parts[0]).equalsASCIICaseInsensitive(scheme) else { return nil }
        return parts[1].trimmingCharacters(in: " \t")
    }
}
