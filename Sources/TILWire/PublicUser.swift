public import Foundation

/// `{"id", "name", "username"}`: the only form of a user ever sent to a client — never a
/// password or a hash. The server calls it `User.Public`.
public struct PublicUser: Codable, Sendable, Hashable {
    public var id: UUID
    public var name: String
    public var username: String

    public init(id: UUID, name: String, username: String) {
        (self.id, self.name, self.username) = (id, name, username)
    }
}

/// `{"id": ...}`: how an acronym or token points at its user, as in the Vapor book.
public struct UserReference: Codable, Sendable, Hashable {
    public var id: UUID

    public init(id: UUID) {
        self.id = id
    }
}

/// The body of `POST /api/users`; with `email`, the server mails it a verification link.
public struct CreateUserRequest: Codable, Sendable, Hashable {
    public var name: String
    public var username: String
    public var password: String
    public var email: String?

    public init(name: String, username: String, password: String, email: String? = nil) {
        (self.name, self.username, self.password, self.email) = (name, username, password, email)
    }
}
