import Foundation

/// The signing keys' place in the app: prepared at start, pruned by the purge job and by
/// `til-server keys prune` after the same retention.
extension TIL {
    /// Adds the first keys if there are none and opens every stored key, before serving. A
    /// problem the operator must fix (no or the wrong `SECRET_KEY`) becomes a `ConfigurationError`
    /// naming it: `serve` exits 78 with that line rather than failing requests later.
    public func prepareSigningKeys() async throws {
        try await Self.namingSecretKey { try await signingKeys.prepare() }
    }

    /// How long a retired key stays published: an id_token lives no longer than an access token
    /// (`TOKEN_TTL`), and a process that has not reloaded since the rotation may sign with the
    /// old key for up to `JWKS_MAX_AGE` after its successor activated.
    var signingKeyRetention: Duration {
        configuration.auth.tokenTTL + configuration.jwksMaxAge
    }
}
