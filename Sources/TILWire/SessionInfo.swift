public import Foundation

/// One live login as `GET /api/users/me/sessions` lists it. Never a token or a digest: a
/// session is ended by its id (`DELETE /api/users/me/sessions/:sessionID`).
public struct SessionInfo: Codable, Sendable, Hashable {
    public var id: UUID
    public var createdAt: String
    public var lastUsedAt: String
    /// When the newest access token of this login expires.
    public var expiresAt: String
    /// When the login ends unless refreshed before.
    public var refreshExpiresAt: String
    public var userAgent: String?
    public var scopes: [String]
    /// True for the session whose token made this request.
    public var current: Bool

    public init(
        id: UUID, createdAt: String, lastUsedAt: String, expiresAt: String, refreshExpiresAt: String, userAgent: String?,
        scopes: [String], current: Bool
    ) {
        self.id = id
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.expiresAt = expiresAt
        self.refreshExpiresAt = refreshExpiresAt
        self.userAgent = userAgent
        self.scopes = scopes
        self.current = current
    }
}

/// The body of `PUT /api/users/me/password`.
public struct PasswordChangeRequest: Codable, Sendable, Hashable {
    public var currentPassword: String
    public var newPassword: String

    public init(currentPassword: String, newPassword: String) {
        self.currentPassword = currentPassword
        self.newPassword = newPassword
    }
}
