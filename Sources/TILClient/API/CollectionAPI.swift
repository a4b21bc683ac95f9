public import Foundation

/// The collections, each a small value over this client: `til.acronyms.show(id)`.
extension APIClient {
    public var acronyms: CollectionAPI<Acronym> { CollectionAPI(client: self, path: "/api/acronyms") }
    public var categories: CollectionAPI<Category> { CollectionAPI(client: self, path: "/api/categories") }
    public var users: CollectionAPI<PublicUser> { CollectionAPI(client: self, path: "/api/users") }
}

/// One collection of the API (`/api/acronyms`): what every collection has — its list in pages,
/// one item by id, creating one — is written here once; each collection adds its own routes
/// in an extension for its `Item` (`CollectionAPI+Acronyms.swift`, ...).
public struct CollectionAPI<Item: Decodable & Sendable>: Sendable {
    let client: APIClient
    /// Where the collection lives: `/api/acronyms`.
    let path: String

    /// `GET /api/<collection>`, oldest first; pages of `limit` rows (nil: one page of all).
    public func list(limit: Int? = nil) -> PageSequence<Item> {
        PageSequence(client: client, APIRequest("GET", path), limit: limit)
    }

    /// `GET /api/<collection>/:id`; 404 when there is none.
    public func show(_ id: UUID) async throws -> Item {
        try await client.send(APIRequest("GET", path(id)), as: Item.self)
    }

    /// `POST /api/<collection>` with `body`, under a token with `scope`: the item made.
    func create(_ body: some Encodable, needing scope: Scope) async throws -> Item {
        try await client.send(try APIRequest("POST", path, json: body, authorization: .bearer(scope)), as: Item.self)
    }

    /// `/api/<collection>/<id>` and what follows it: `path(id, "categories")`.
    func path(_ id: UUID, _ below: String...) -> String {
        ([path, id.uuidString] + below).joined(separator: "/")
    }
}
