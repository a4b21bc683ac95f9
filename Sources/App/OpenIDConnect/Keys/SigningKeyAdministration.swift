public import Foundation
public import JOSE

/// The operator's commands on the signing keys (`til-server keys`): rotate, list, prune.
public struct SigningKeyAdministration: Sendable {
    let store: SigningKeyStore
    let ring: SigningKeyRing
    /// `TIL.signingKeyRetention`.
    let retention: Duration

    /// One key as `keys list` shows it.
    public struct Key: Sendable {
        public let kid: String
        public let algorithm: JWSAlgorithm
        public let createdAt: Date
        public let activatesAt: Date
        /// When a newer key of its algorithm became active; nil while none has.
        public let retiredAt: Date?
        /// `retiredAt` plus the retention: when `keys prune` (or the purge job) removes it.
        public let prunableAt: Date?
        /// next (published, not signing yet), active, or retired.
        public let status: String
    }

    /// How long a rotated key waits before it signs, unless activated at once: one JWKS max-age
    /// for every process to have reloaded the keys, one more for every relying party's cached
    /// copy of the published set to have expired.
    public var activationDelay: Duration { ring.maxAge * 2 }

    /// Adds a new key for each of `algorithms`, signing after `activationDelay` or, with
    /// `activate`, at once. The stored keys must open with this `SECRET_KEY` first: a key
    /// sealed with another one would stop every process that has the right one.
    public func rotate(_ algorithms: [JWSAlgorithm], activate: Bool) async throws -> [Key] {
        try await TIL.namingSecretKey { try await ring.prepare() }
        var kids: [String] = []
        for algorithm in algorithms {
            kids.append(try await store.add(algorithm, activatingAfter: activate ? .zero : activationDelay).kid)
        }
        return try await list().filter { kids.contains($0.kid) }
    }

    /// Every stored key, oldest activation first.
    public func list() async throws -> [Key] {
        try await store.rows().map { row in
            let status = row.retiredAt != nil ? "retired" : row.secondsUntilActive > 0 ? "next" : "active"
            return Key(
                kid: row.kid, algorithm: row.algorithm, createdAt: row.createdAt, activatesAt: row.activatesAt, retiredAt: row.retiredAt,
                prunableAt: row.retiredAt.map { $0.addingTimeInterval(Double(retention.components.seconds)) }, status: status)
        }
    }

    /// Removes the keys retired longer than the retention; their kids.
    public func prune() async throws -> [String] {
        try await store.prune(retention: retention)
    }
}

extension TIL {
    /// The operator's commands on the signing keys.
    public var signingKeyAdministration: SigningKeyAdministration {
        SigningKeyAdministration(store: signingKeys.store, ring: signingKeys, retention: signingKeyRetention)
    }

    /// Runs `work`, turning a `SigningKeyFailure` into a `ConfigurationError` naming what to fix.
    static func namingSecretKey<T>(_ work: () async throws -> T) async throws -> T {
        do {
            return try await work()
        } catch let failure as SigningKeyFailure {
            throw ConfigurationError(failure.description)
        }
    }
}
