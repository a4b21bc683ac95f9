public import Foundation

/// `/api/acronyms`: reads are public; changes need the `acronyms:write` scope.
extension CollectionAPI where Item == Acronym {
    /// `GET /api/acronyms/search?term=`: exact matches on short or long.
    public func search(_ term: String, limit: Int? = nil) -> PageSequence<Acronym> {
        PageSequence(client: client, APIRequest("GET", "/api/acronyms/search", query: [(name: "term", value: term)]), limit: limit)
    }

    /// `GET /api/acronyms/first`; 404 when there is none.
    public func first() async throws -> Acronym {
        try await client.send(APIRequest("GET", "/api/acronyms/first"), as: Acronym.self)
    }

    /// `GET /api/acronyms/sorted`, by short.
    public func sorted(limit: Int? = nil) -> PageSequence<Acronym> {
        PageSequence(client: client, APIRequest("GET", "/api/acronyms/sorted"), limit: limit)
    }

    /// `GET /api/acronyms/:id/user`: who owns it.
    public func owner(of id: UUID) async throws -> PublicUser {
        try await client.send(APIRequest("GET", path(id, "user")), as: PublicUser.self)
    }

    /// `GET /api/acronyms/:id/categories`.
    public func categories(of id: UUID, limit: Int? = nil) -> PageSequence<Category> {
        PageSequence(client: client, APIRequest("GET", path(id, "categories")), limit: limit)
    }

    /// `POST /api/acronyms`: owned by the caller.
    public func create(short: String, long: String) async throws -> Acronym {
        try await create(AcronymRequest(short: short, long: long), needing: .acronymsWrite)
    }

    /// `PUT /api/acronyms/:id`.
    public func update(_ id: UUID, short: String, long: String) async throws -> Acronym {
        let body = AcronymRequest(short: short, long: long)
        return try await client.send(try APIRequest("PUT", path(id), json: body, authorization: .bearer(.acronymsWrite)), as: Acronym.self)
    }

    /// `DELETE /api/acronyms/:id`.
    public func delete(_ id: UUID) async throws {
        try await client.send(APIRequest("DELETE", path(id), authorization: .bearer(.acronymsWrite)))
    }

    /// `POST /api/acronyms/:id/categories/:categoryID` (linking twice keeps one link).
    public func link(_ id: UUID, to category: UUID) async throws {
        try await client.send(APIRequest("POST", path(id, "categories", category.uuidString), authorization: .bearer(.acronymsWrite)))
    }

    /// `DELETE /api/acronyms/:id/categories/:categoryID`.
    public func unlink(_ id: UUID, from category: UUID) async throws {
        try await client.send(APIRequest("DELETE", path(id, "categories", category.uuidString), authorization: .bearer(.acronymsWrite)))
    }
}
