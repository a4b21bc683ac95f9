public import Foundation

extension APIClient {
    /// The caller's passkeys. Registering one is a browser's ceremony (`navigator.credentials.create`
    /// on the account page); a client can list, rename and remove them.
    public var passkeys: PasskeysAPI { PasskeysAPI(client: self) }
}

/// `/api/users/me/passkeys`; everything here needs a token with the `account` scope.
public struct PasskeysAPI: Sendable {
    let client: APIClient

    /// `GET /api/users/me/passkeys`: every passkey of the account, never a key or a counter.
    public func list() async throws -> [PasskeySummary] {
        try await client.send(APIRequest("GET", "/api/users/me/passkeys", authorization: .bearer(.account)), as: [PasskeySummary].self)
    }

    /// `PATCH /api/users/me/passkeys/:id`: a new name; 404 when the account has no such passkey.
    public func rename(_ id: UUID, to name: String) async throws -> PasskeySummary {
        let request = try APIRequest("PATCH", path(id), json: PasskeyRenameRequest(name: name), authorization: .bearer(.account))
        return try await client.send(request, as: PasskeySummary.self)
    }

    /// `DELETE /api/users/me/passkeys/:id`: it no longer signs in; 404 when the account has no such passkey.
    public func remove(_ id: UUID) async throws {
        try await client.send(APIRequest("DELETE", path(id), authorization: .bearer(.account)))
    }

    private func path(_ id: UUID) -> String { "/api/users/me/passkeys/\(id.uuidString)" }
}
