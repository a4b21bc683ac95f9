public import Foundation
public import Web

/// `{"id", "short", "long", "user": {"id"}}`, the book's JSON shape.
public struct Acronym: Content, Equatable {
    public var id: UUID
    public var short: String
    public var long: String
    public var user: UserReference

    /// Hand-written for the list endpoints (same output as `encode(to:)`; see ModelJSONTests).
    public func writeJSON(to json: JSONSink) {
        json.object { json in
            json.field("id", id)
            json.field("short", short)
            json.field("long", long)
            json.field("user", object: { $0.field("id", user.id) })
        }
    }
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
