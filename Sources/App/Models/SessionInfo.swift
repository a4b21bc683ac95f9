public import Foundation
public import Web

/// One live login as `GET /api/users/me/sessions` lists it. Never a token or a digest: a
/// session is ended by its id (`DELETE /api/users/me/sessions/:sessionID`).
public struct SessionInfo: Content, Equatable {
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
}

/// The body of `POST /api/users/refresh`.
struct RefreshRequest: Decodable, Sendable {
    var refreshToken: String
}

/// The body of `PUT /api/users/me/password`.
struct PasswordChangeRequest: Decodable, Sendable {
    var currentPassword: String
    var newPassword: String
}
