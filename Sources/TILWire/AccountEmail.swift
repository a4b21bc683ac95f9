public import Foundation

/// `GET /api/users/me`: the caller's own account. `email`, `emailVerified` and `pendingEmail`
/// only to a token holding `account` (or OpenID Connect's `email`): another application's
/// token learns who the user is, not their address. `email` is the address in force (verified
/// or not); `pendingEmail` a change waiting for its link to be followed.
public struct AccountProfile: Codable, Sendable, Hashable {
    public var id: UUID
    public var name: String
    public var username: String
    public var email: String?
    public var emailVerified: Bool?
    public var pendingEmail: String?

    public init(id: UUID, name: String, username: String, email: String? = nil, emailVerified: Bool? = nil, pendingEmail: String? = nil) {
        (self.id, self.name, self.username) = (id, name, username)
        (self.email, self.emailVerified, self.pendingEmail) = (email, emailVerified, pendingEmail)
    }
}

/// The body of `PUT /api/users/me/email`: the new address, pending until its link is
/// followed, and the current password.
public struct EmailChangeRequest: Codable, Sendable, Hashable {
    public var email: String
    public var currentPassword: String

    public init(email: String, currentPassword: String) {
        (self.email, self.currentPassword) = (email, currentPassword)
    }
}

/// The body of `POST /api/users/email/verify`: the token of a verification link.
public struct EmailVerificationRequest: Codable, Sendable, Hashable {
    public var token: String

    public init(token: String) { self.token = token }
}
