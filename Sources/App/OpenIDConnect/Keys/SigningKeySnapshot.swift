import JOSE

/// The signing keys as one load read them: opened private keys with their activation times on
/// this process's clock, and the public set.
struct SigningKeySnapshot: Sendable {
    struct Entry: Sendable {
        let key: SigningKey
        let activation: ContinuousClock.Instant
    }

    /// In activation order (then insertion order).
    let entries: [Entry]
    let published: JWKSet
    let loadedAt: ContinuousClock.Instant

    /// The key that signs for `algorithm` at `now`: the last to have become active.
    func active(_ algorithm: JWSAlgorithm, at now: ContinuousClock.Instant) -> SigningKey? {
        entries.last { $0.key.algorithm == algorithm && $0.activation <= now }?.key
    }

    /// Reads and opens every stored key; adds the missing ones first (the first start).
    static func load(from store: SigningKeyStore) async throws -> SigningKeySnapshot {
        try await store.addMissingKeys()
        let rows = try await store.rows()
        let loadedAt = ContinuousClock.now
        let entries = try rows.map { row in
            Entry(key: try store.open(row), activation: loadedAt + .milliseconds(Int64((row.secondsUntilActive * 1000).rounded(.up))))
        }
        return SigningKeySnapshot(entries: entries, published: JWKSet(keys: rows.map(\.publicJWK)), loadedAt: loadedAt)
    }
}
