public import Foundation

/// `{"id", "name"}`: a label acronyms are linked to.
public struct Category: Codable, Sendable, Hashable {
    public var id: UUID
    public var name: String

    public init(id: UUID, name: String) {
        (self.id, self.name) = (id, name)
    }
}

/// The body of `POST /api/categories`.
public struct CategoryRequest: Codable, Sendable, Hashable {
    public var name: String

    public init(name: String) {
        self.name = name
    }
}
