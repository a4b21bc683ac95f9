import Foundation

/// Everything a credential store holds: whose tokens, for which server, one per scope set.
public struct StoredCredentials: Codable, Sendable, Equatable {
    /// The server (its base URL) the tokens were issued by: a client for another server does
    /// not use them, and each credential's `origins` hold it to that at every send.
    public var server: String?
    /// The name the user logged in with (for display; the server knows the user by id).
    public var username: String?
    public var credentials: [Credential]

    public init(server: String? = nil, username: String? = nil, credentials: [Credential] = []) {
        self.server = server
        self.username = username
        self.credentials = credentials
    }

    public var isEmpty: Bool { credentials.isEmpty }

    /// The token with exactly these scopes.
    public func credential(for scopes: ScopeSet) -> Credential? {
        credentials.first { $0.scopes == scopes }
    }

    /// The token to send for a route needing `scope` (nil: any token): the one with the
    /// fewest scopes that has it, so a request never carries more power than it needs.
    public func best(for scope: Scope?) -> Credential? {
        credentials.filter { scope.map($0.scopes.contains) ?? true }.min { $0.scopes.scopes.count < $1.scopes.scopes.count }
    }

    /// Stores `credential` in place of the one with the same scopes; returns that one.
    @discardableResult
    public mutating func put(_ credential: Credential) -> Credential? {
        let replaced = self.credential(for: credential.scopes)
        credentials.removeAll { $0.scopes == credential.scopes }
        credentials.append(credential)
        return replaced
    }

    public mutating func remove(_ scopes: ScopeSet) {
        credentials.removeAll { $0.scopes == scopes }
    }

    /// Where a refresh for `scopes` starts: the credential with exactly these scopes, else (a
    /// narrowing, RFC 6749 §6 `scope`) one of an OAuth sign-in that holds them all — the
    /// fewest such. Every scope set of one sign-in carries the same refresh token.
    func refreshSource(for scopes: ScopeSet) -> Credential? {
        credential(for: scopes) ?? credentials
            .filter { $0.oauthClientID != nil && scopes.scopes.isSubset(of: $0.scopes.scopes) }
            .min { $0.scopes.scopes.count < $1.scopes.scopes.count }
    }

    /// Keeps `renewed`, the answer to spending the refresh token `spent`, and gives every
    /// other credential of the same sign-in (each held `spent`) the new refresh token, in the
    /// same write: no scope set is left holding a spent token, which the server would take for
    /// a stolen one and end the sign-in (RFC 9700 §4.14).
    mutating func rotate(_ spent: String, to renewed: Credential) {
        put(renewed)
        for index in credentials.indices where credentials[index].refreshToken == spent {
            credentials[index].refreshToken = renewed.refreshToken
            credentials[index].refreshExpiresAt = renewed.refreshExpiresAt
        }
    }

    /// Forgets every credential holding `refreshToken`: the sign-in it belongs to is over.
    mutating func removeAll(holding refreshToken: String) {
        credentials.removeAll { $0.refreshToken == refreshToken }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        server = try container.decodeIfPresent(String.self, forKey: .server)
        username = try container.decodeIfPresent(String.self, forKey: .username)
        credentials = try container.decode([Credential].self, forKey: .credentials)
        // Stored before credentials recorded their origins: they were kept for `server` then.
        guard let legacy = server.flatMap(URL.init(string:)).flatMap(Origin.init) else { return }
        for index in credentials.indices where credentials[index].origins.isEmpty { credentials[index].origins = [legacy] }
    }
}
