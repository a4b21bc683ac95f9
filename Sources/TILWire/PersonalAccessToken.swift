public import Foundation

/// One personal access token as `GET /api/users/me/tokens` lists it: never its value or digest.
/// A token for scripts and CI that is not the password: a bearer token of its own session
/// (`til_pat_…`), with the scopes and the expiry it was created with, never refreshed.
public struct PersonalAccessToken: Codable, Sendable, Hashable {
    public var id: UUID
    /// The owner's label ("CI deploys"); not unique: the id is what revokes it.
    public var name: String
    public var scopes: [Scope]
    @WireDate public var createdAt: Date
    @WireDate public var expiresAt: Date
    /// When it was last sent, to within a minute; nil (absent on the wire) until its first use.
    @OptionalWireDate public var lastUsedAt: Date?
    /// The client address of that use, as the server saw it.
    public var lastUsedFrom: String?

    public init(
        id: UUID, name: String, scopes: [Scope], createdAt: Date, expiresAt: Date, lastUsedAt: Date? = nil, lastUsedFrom: String? = nil
    ) {
        (self.id, self.name, self.scopes) = (id, name, scopes)
        (self.createdAt, self.expiresAt, self.lastUsedAt, self.lastUsedFrom) = (createdAt, expiresAt, lastUsedAt, lastUsedFrom)
    }

    /// How every personal access token begins, so secret scanners can find a leaked one:
    /// `til_pat_` and 43 base64url characters (256 random bits).
    public static let prefix = "til_pat_"

    /// The reason of the 403 a personal access token gets on a route that needs a login
    /// (managing tokens, sessions, the password, second factors).
    public static let needsLoginReason = "needs a login, not a personal access token"

    /// Whether `token` is shaped like a personal access token (its prefix; the server decides
    /// whether it is one).
    public static func isShaped(_ token: String) -> Bool {
        token.hasPrefix(prefix)
    }
}

/// The answer of `POST /api/users/me/tokens` (201): the only time the token's value is shown.
public struct NewPersonalAccessToken: Codable, Sendable, Hashable {
    public var id: UUID
    public var name: String
    /// `til_pat_…`: send it as `Authorization: Bearer <token>`.
    public var token: String
    public var scopes: [Scope]
    @WireDate public var createdAt: Date
    @WireDate public var expiresAt: Date

    public init(id: UUID, name: String, token: String, scopes: [Scope], createdAt: Date, expiresAt: Date) {
        (self.id, self.name, self.token, self.scopes, self.createdAt, self.expiresAt) = (id, name, token, scopes, createdAt, expiresAt)
    }
}

/// The body of `POST /api/users/me/tokens`.
public struct PersonalAccessTokenRequest: Codable, Sendable, Hashable {
    public var name: String
    /// At most the caller's, never `account` or `clients:write`.
    public var scopes: [Scope]
    /// Seconds until it expires: required, at most the server's `PAT_MAX_TTL`.
    public var expiresIn: Int

    public init(name: String, scopes: [Scope], expiresIn: Int) {
        (self.name, self.scopes, self.expiresIn) = (name, scopes, expiresIn)
    }
}
