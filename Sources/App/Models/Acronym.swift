public import Foundation
public import Web

/// `{"id", "short", "long", "user": {"id"}}`, the book's JSON shape.
public struct Acronym: Content, Equatable {
    public var id: UUID
    public var short: String
    public var long: String
    public var user: UserReference
}

/// The body of `POST /api/acronyms` and `PUT /api/acronyms/:acronymID`.
struct AcronymRequest: Decodable, Sendable {
    var short: String
    var long: String

    func validate() throws {
        try Validation.text(short, field: "short", max: 64)
        try Validation.text(long, field: "long", max: 512)
    }
}
