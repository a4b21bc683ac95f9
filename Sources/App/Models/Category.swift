public import Foundation
public import Web

public struct Category: Content, Equatable {
    public var id: UUID
    public var name: String

    /// Hand-written for the list endpoints (same output as `encode(to:)`; see ModelJSONTests).
    public func writeJSON(to json: JSONSink) {
        json.object { json in
            json.field("id", id)
            json.field("name", name)
        }
    }
}

/// The body of `POST /api/categories`.
struct CategoryRequest: Decodable, Sendable {
    var name: String

    func validate() throws {
        try Validation.text(name, field: "name", max: 128)
    }
}
