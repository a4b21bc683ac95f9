public import Foundation

extension APIClient {
    public var categories: CategoriesAPI { CategoriesAPI(client: self) }
}

/// `/api/categories`: reads are public; creating needs the `categories:write` scope.
public struct CategoriesAPI: Sendable {
    let client: APIClient

    public func list(limit: Int? = nil) -> PageSequence<Category> {
        PageSequence(client: client, APIRequest("GET", "/api/categories"), limit: limit)
    }

    public func show(_ id: UUID) async throws -> Category {
        try await client.send(APIRequest("GET", "/api/categories/\(id.uuidString)"), as: Category.self)
    }

    /// `GET /api/categories/:id/acronyms`.
    public func acronyms(in id: UUID, limit: Int? = nil) -> PageSequence<Acronym> {
        PageSequence(client: client, APIRequest("GET", "/api/categories/\(id.uuidString)/acronyms"), limit: limit)
    }

    public func create(name: String) async throws -> Category {
        let request = try APIRequest("POST", "/api/categories", json: CategoryRequest(name: name), authorization: .bearer(.categoriesWrite))
        return try await client.send(request, as: Category.self)
    }
}
