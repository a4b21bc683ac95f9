public import Foundation
public import Web

/// A user as stored: the password hash never leaves this type except to bcrypt.
public struct User: Authenticatable, Sendable {
    public var id: UUID
    public var name: String
    public var username: String
    var passwordHash: String

    /// The only form of a user ever sent to a client.
    public struct Public: Content, Equatable {
        public var id: UUID
        public var name: String
        public var username: String

        /// Hand-written for the list endpoints (same output as `encode(to:)`; see ModelJSONTests).
        public func writeJSON(to json: JSONSink) {
            json.object { json in
                json.field("id", id)
                json.field("name", name)
                json.field("username", username)
            }
        }
    }

    public var asPublic: Public { Public(id: id, name: name, username: username) }
}

/// The body of `POST /api/users`.
struct CreateUserRequest: Decodable, Sendable {
    var name: String
    var username: String
    var password: String

    func validate() throws {
        try Validation.text(name, field: "name", max: 128)
        try UsernameRules.validate(username)
        try PasswordRules.validate(password)
    }
}

/// `{"id": ...}`: how an acronym or token points at its user, as in the Vapor book.
public struct UserReference: Codable, Sendable, Equatable {
    public var id: UUID
}
