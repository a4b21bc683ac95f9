public import Foundation

/// The answer to a login or a refresh. The book's fields (`id`, `value`, `user.id`) keep their
/// meaning for clients that know only the book; the rest are additions:
/// `{"id", "value", "user": {"id"}, "expiresAt", "refreshToken", "refreshExpiresAt", "scopes", "tokenType"}`.
///
/// `id` is the session (the login) the pair belongs to: a refresh keeps it, and the sessions
/// list uses the same id. Token values are shown once, here; the database keeps only digests.
public struct Token: Codable, Sendable, Hashable {
    public var id: UUID
    /// The access token, sent as `Authorization: Bearer <value>`.
    public var value: String
    public var user: UserReference
    /// Past it the access token answers 401 `invalid_token`.
    @WireDate public var expiresAt: Date
    /// Redeemed once at `POST /api/users/refresh` for a new pair.
    public var refreshToken: String
    @WireDate public var refreshExpiresAt: Date
    /// What the pair may do, in canonical order; scopes this version does not know are kept.
    public var scopes: [Scope]
    public var tokenType = "Bearer"
    /// After a login completed with a recovery code: how many unused codes are left.
    public var recoveryCodesRemaining: Int?

    public init(
        id: UUID, value: String, user: UserReference, expiresAt: Date, refreshToken: String, refreshExpiresAt: Date,
        scopes: [Scope], tokenType: String = "Bearer"
    ) {
        self.id = id
        self.value = value
        self.user = user
        self.expiresAt = expiresAt
        self.refreshToken = refreshToken
        self.refreshExpiresAt = refreshExpiresAt
        self.scopes = scopes
        self.tokenType = tokenType
    }
}

/// The body of `POST /api/users/refresh`.
public struct RefreshRequest: Codable, Sendable, Hashable {
    public var refreshToken: String

    public init(refreshToken: String) {
        self.refreshToken = refreshToken
    }
}
