public import Foundation

/// One login's tokens as a client keeps them: the pair, what it may do, and when it lapses.
///
/// Expiry is kept by this machine's clock: the server's `expiresAt` moved by the skew its
/// `Date` header showed, so a client whose clock is off by minutes still refreshes on time.
public struct Credential: Codable, Sendable, Equatable {
    /// The session (login) the pair belongs to; a refresh keeps it.
    public var sessionID: UUID
    public var userID: UUID
    public var scopes: ScopeSet
    public var accessToken: String
    public var refreshToken: String
    /// When the access token expires, by this machine's clock.
    public var expiresAt: Date
    /// When the refresh token expires (and the login with it), by this machine's clock.
    public var refreshExpiresAt: Date
    /// How long the server let the access token live.
    public var lifetime: TimeInterval

    /// The credential in a login or refresh answer that arrived at `receivedAt`, when the
    /// server's clock said `serverDate`.
    public init(_ token: Token, serverDate: Date?, receivedAt: Date) {
        let skew = serverDate.map { receivedAt.timeIntervalSince($0) } ?? 0
        sessionID = token.id
        userID = token.user.id
        scopes = ScopeSet(token.scopes)
        accessToken = token.value
        refreshToken = token.refreshToken
        expiresAt = token.expiresAt.addingTimeInterval(skew)
        refreshExpiresAt = token.refreshExpiresAt.addingTimeInterval(skew)
        lifetime = max(0, token.expiresAt.timeIntervalSince(serverDate ?? receivedAt))
    }

    /// Whether the access token is too close to its end to leave with: within `margin` of it
    /// (at most half its lifetime, so a short-lived token is not refreshed on every call).
    public func needsRefresh(at now: Date, margin: TimeInterval) -> Bool {
        now >= expiresAt.addingTimeInterval(-min(margin, lifetime / 2))
    }

    /// Whether the refresh token has lapsed: the login is over.
    public func isOver(at now: Date) -> Bool { now >= refreshExpiresAt }
}
