public import Foundation

/// Per-API tokens from one sign-in, as MSAL's `getAccessToken(scopes:)` gives them.
extension APIClient {
    /// An access token holding exactly `scopes`, to send to an API that needs no more: the one
    /// held for that scope set (renewed first if it is about to expire), or one obtained now by
    /// a narrowing refresh (RFC 6749 §6 `scope`) of an OAuth sign-in that granted them all —
    /// without asking the person again.
    ///
    /// Every scope set of a sign-in shares its one rotating refresh token: refreshes queue on
    /// the store, each presenting the token the one before left, so two narrowings at once
    /// never present a spent one (which the server would take for theft and end the sign-in).
    /// Throws `notAuthenticated` when no sign-in holds the scopes (a password login cannot be
    /// narrowed: log in with `scopes`, or sign in in the browser).
    public func accessToken(scopes: Set<Scope>) async throws -> AccessToken {
        guard !scopes.isEmpty else { throw TILError.invalidArgument("Ask for at least one scope.") }
        let credential = try await keeper.credential(narrowedTo: ScopeSet(scopes))
        return AccessToken(value: credential.accessToken, scopes: credential.scopes, expiresAt: credential.expiresAt)
    }
}

/// An access token for one scope set: send it as `Authorization: Bearer <value>`.
public struct AccessToken: Sendable, Equatable {
    public let value: String
    public let scopes: ScopeSet
    /// By this machine's clock.
    public let expiresAt: Date
}
