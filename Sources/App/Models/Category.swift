public import Foundation
public import Web

public struct Category: Content, Equatable {
    public var id: UUID
    public var name: String
}

/// The body of `POST /api/categories`.
struct CategoryRequest: Decodable, Sendable {
    var name: String

    func validate() throws {
        try Validation.text(name, field: "name", max: 128)
    }
}
