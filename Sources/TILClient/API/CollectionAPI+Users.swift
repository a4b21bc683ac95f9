public import Foundation

/// `/api/users`: reads are public; creating a user needs the `users:write` scope.
extension CollectionAPI where Item == PublicUser {
    /// `GET /api/users/:id/acronyms`.
    public func acronyms(of id: UUID, limit: Int? = nil) -> PageSequence<Acronym> {
        PageSequence(client: client, APIRequest("GET", path(id, "acronyms")), limit: limit)
    }

    /// `POST /api/users`; 409 when the username is taken.
    public func create(name: String, username: String, password: String) async throws -> PublicUser {
        try await create(CreateUserRequest(name: name, username: username, password: password), needing: .usersWrite)
    }
}
