public import Foundation

/// `/api/categories`: reads are public; creating needs the `categories:write` scope.
extension CollectionAPI where Item == Category {
    /// `GET /api/categories/:id/acronyms`.
    public func acronyms(in id: UUID, limit: Int? = nil) -> PageSequence<Acronym> {
        PageSequence(client: client, APIRequest("GET", path(id, "acronyms")), limit: limit)
    }

    public func create(name: String) async throws -> Category {
        try await create(CategoryRequest(name: name), needing: .categoriesWrite)
    }
}
