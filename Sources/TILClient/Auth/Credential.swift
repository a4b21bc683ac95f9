public import Foundation

/// One login's tokens as a client keeps them: the pair, what it may do, when it lapses, and
/// where it may be sent.
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
    /// The only origins its tokens are ever sent to, recorded when it was issued: the server
    /// logged in to. (An OAuth login adds its issuer's token endpoint, where the refresh token
    /// is spent.) Empty: sent nowhere.
    public var origins: [Origin]
    /// How the login was obtained: nil for a password login (`POST /api/users/login`, renewed
    /// at `/api/users/refresh`); an OAuth client's id for a web login (`til login --web`, the
    /// device grant), renewed at the token endpoint as that client.
    public var oauthClientID: String?
    /// Which way of logging in issued it (`til status` shows it); a refresh keeps it.
    public var signIn: SignInMethod = .password

    /// The credential in a login or refresh answer that arrived at `receivedAt`, when the
    /// server's clock said `serverDate`, for use at `origins` only.
    public init(_ token: Token, origins: [Origin], serverDate: Date?, receivedAt: Date) {
        self.origins = origins
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

extension Credential {
    /// Reads a stored credential. One stored before credentials recorded their origins has
    /// none here; `StoredCredentials` gives it the server it was kept for.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sessionID = try container.decode(UUID.self, forKey: .sessionID)
        userID = try container.decode(UUID.self, forKey: .userID)
        scopes = try container.decode(ScopeSet.self, forKey: .scopes)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        refreshToken = try container.decode(String.self, forKey: .refreshToken)
        expiresAt = try container.decode(Date.self, forKey: .expiresAt)
        refreshExpiresAt = try container.decode(Date.self, forKey: .refreshExpiresAt)
        lifetime = try container.decode(TimeInterval.self, forKey: .lifetime)
        origins = try container.decodeIfPresent([Origin].self, forKey: .origins) ?? []
        oauthClientID = try container.decodeIfPresent(String.self, forKey: .oauthClientID)
        // Stored before the method was recorded: only the device grant had a client then.
        signIn = try container.decodeIfPresent(SignInMethod.self, forKey: .signIn) ?? (oauthClientID == nil ? .password : .device)
    }
}
