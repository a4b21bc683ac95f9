public import Foundation
public import Web

/// A user as stored: the password hash never leaves this type except to bcrypt.
public struct User: Authenticatable, Sendable {
    public var id: UUID
    public var name: String
    public var username: String
    var passwordHash: String

    /// The only form of a user ever sent to a client (a wire type, shared with the client).
    public typealias Public = PublicUser

    public var asPublic: Public { Public(id: id, name: name, username: username) }
}
