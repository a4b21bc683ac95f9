public import Foundation

extension APIClient {
    /// The caller's personal access tokens: tokens for scripts and CI, made by a login.
    /// A client holding a personal access token itself (`init(server:personalAccessToken:)`)
    /// cannot use these: they need a login (`TILError.needsLogin`).
    public var tokens: TokensAPI { TokensAPI(client: self) }

    /// A client that sends a personal access token (`til_pat_…`) as its bearer: no login, no
    /// refresh. It may call every route the token's scopes allow; those that manage the account
    /// throw `TILError.needsLogin`.
    public init(server: URL, personalAccessToken: String, configuration: Configuration = Configuration()) {
        self.init(server: server, bearerToken: personalAccessToken, configuration: configuration)
    }
}

/// `/api/users/me/tokens`; everything here needs a login holding the `account` scope.
public struct TokensAPI: Sendable {
    let client: APIClient

    /// `POST /api/users/me/tokens`: a new token, whose `token` is shown this once. `scopes`
    /// at most the login's, never `account` or `clients:write`; `expiresIn` at most the
    /// server's `PAT_MAX_TTL`.
    public func create(name: String, scopes: [Scope], expiresIn: Duration) async throws -> NewPersonalAccessToken {
        let body = PersonalAccessTokenRequest(name: name, scopes: scopes, expiresIn: Int(expiresIn.components.seconds))
        let request = try APIRequest("POST", "/api/users/me/tokens", json: body, authorization: .bearer(.account))
        return try await client.send(request, as: NewPersonalAccessToken.self)
    }

    /// `GET /api/users/me/tokens`: every live token, oldest first; never a value.
    public func list() async throws -> [PersonalAccessToken] {
        try await client.send(APIRequest("GET", "/api/users/me/tokens", authorization: .bearer(.account)), as: [PersonalAccessToken].self)
    }

    /// `DELETE /api/users/me/tokens/:id`: refused from the next request on; 404 when the
    /// account has no live token with that id.
    public func revoke(_ id: UUID) async throws {
        try await client.send(APIRequest("DELETE", "/api/users/me/tokens/\(id.uuidString)", authorization: .bearer(.account)))
    }
}
