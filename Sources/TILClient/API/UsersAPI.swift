public import Foundation

extension APIClient {
    public var users: UsersAPI { UsersAPI(client: self) }
}

/// `/api/users`: reads are public; creating a user needs the `users:write` scope.
public struct UsersAPI: Sendable {
    let client: APIClient

    public func list(limit: Int? = nil) -> PageSequence<PublicUser> {
        PageSequence(client: client, APIRequest("GET", "/api/users"), limit: limit)
    }

    public func show(_ id: UUID) async throws -> PublicUser {
        try await client.send(APIRequest("GET", "/api/users/\(id.uuidString)"), as: PublicUser.self)
    }

    /// `GET /api/users/:id/acronyms`.
    public func acronyms(of id: UUID, limit: Int? = nil) -> PageSequence<Acronym> {
        PageSequence(client: client, APIRequest("GET", "/api/users/\(id.uuidString)/acronyms"), limit: limit)
    }

    /// `POST /api/users`; 409 when the username is taken.
    public func create(name: String, username: String, password: String) async throws -> PublicUser {
        let body = CreateUserRequest(name: name, username: username, password: password)
        return try await client.send(try APIRequest("POST", "/api/users", json: body, authorization: .bearer(.usersWrite)), as: PublicUser.self)
    }
}
