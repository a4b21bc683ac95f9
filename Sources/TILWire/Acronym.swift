public import Foundation

/// `{"id", "short", "long", "user": {"id"}}`, the book's JSON shape.
public struct Acronym: Codable, Sendable, Hashable {
    public var id: UUID
    public var short: String
    public var long: String
    public var user: UserReference

    public init(id: UUID, short: String, long: String, user: UserReference) {
        (self.id, self.short, self.long, self.user) = (id, short, long, user)
    }
}

/// The body of `POST /api/acronyms` and `PUT /api/acronyms/:acronymID`.
public struct AcronymRequest: Codable, Sendable, Hashable {
    public var short: String
    public var long: String

    public init(short: String, long: String) {
        (self.short, self.long) = (short, long)
    }
}
