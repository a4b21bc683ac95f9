public import Foundation
public import Web

/// The answer to a login or a refresh. The book's fields (`id`, `value`, `user.id`) keep their
/// meaning for clients that know only the book; the rest are additions:
/// `{"id", "value", "user": {"id"}, "expiresAt", "refreshToken", "refreshExpiresAt", "scopes", "tokenType"}`.
///
/// `id` is the session (the login) the pair belongs to: a refresh keeps it, and the sessions
/// list uses the same id. Token values are shown once, here; the database keeps only digests.
public struct Token: Content, Equatable {
    public var id: UUID
    /// The access token, sent as `Authorization: Bearer <value>`.
    public var value: String
    public var user: UserReference
    /// ISO 8601 UTC; past it the access token answers 401 `invalid_token`.
    public var expiresAt: String
    /// Redeemed once at `POST /api/users/refresh` for a new pair.
    public var refreshToken: String
    public var refreshExpiresAt: String
    public var scopes: [String]
    public var tokenType = "Bearer"
}

extension Token {
    /// As a response nobody may store: a token must not sit in a shared or browser cache
    /// (RFC 6749 §5.1).
    func noStoreResponse(for request: Request) throws -> Response {
        var response = try encodeResponse(for: request)
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        response.headers.replaceOrAdd(name: "Pragma", value: "no-cache")
        return response
    }
}

extension Date {
    /// `2026-11-23T12:00:00Z`: ISO 8601, UTC, whole seconds, as every API answer writes times.
    var iso8601: String { formatted(.iso8601) }
}
