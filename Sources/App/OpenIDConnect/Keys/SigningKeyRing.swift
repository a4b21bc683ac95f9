import Foundation
import JOSE
import Synchronization

/// Every process's view of the signing keys in PostgreSQL (`SigningKeyStore`), reloaded at
/// least every JWKS max-age: a use after that reads the table again first (one reload at a
/// time; the others wait for it). Signs with the active key of an algorithm, verifies against
/// the published set, and publishes that set at `jwks_uri`.
///
/// The active key is chosen when signing, from each key's activation time (measured against
/// the database's clock at load), so a rotated key starts signing on time without a reload.
final class SigningKeyRing: Sendable {
    let store: SigningKeyStore
    /// `JWKS_MAX_AGE`: the most a snapshot may age before a use reloads it.
    let maxAge: Duration
    private let state = Mutex<State>(State())

    private struct State {
        var snapshot: SigningKeySnapshot?
        var reloading: Task<SigningKeySnapshot, any Error>?
    }

    init(store: SigningKeyStore, maxAge: Duration) {
        self.store = store
        self.maxAge = maxAge
    }

    /// Adds the missing keys (the first start's RSA 2048 and P-256) and opens every stored key:
    /// at start-up, so a wrong `SECRET_KEY` stops the server with a clear message instead of
    /// failing its first sign-in.
    func prepare() async throws {
        try await reload()
    }

    /// Signs `claims` (JSON-encoded) with the active key of `algorithm`: a compact JWS whose
    /// header carries `alg`, `kid` and `typ: JWT`.
    func sign(_ claims: some Encodable, algorithm: JWSAlgorithm) async throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let payload = try encoder.encode(claims)
        guard let key = try await snapshot().active(algorithm, at: .now) else { throw SigningKeyFailure.noActiveKey(algorithm) }
        return try key.sign(payload: payload)
    }

    /// The payload of `compact` if one of the published keys signed it (for `id_token_hint`).
    /// A kid this process has not loaded yet (another one just rotated with `--activate`)
    /// reloads once, at most once a second.
    func verify(_ compact: String) async throws -> Data {
        let snapshot = try await snapshot()
        do {
            return try JWS.verify(compact, keys: snapshot.published, allowed: Set(JWSAlgorithm.allCases))
        } catch JOSEError.unknownKey where ContinuousClock.now - snapshot.loadedAt > .seconds(1) {
            return try JWS.verify(compact, keys: try await reload().published, allowed: Set(JWSAlgorithm.allCases))
        }
    }

    /// The published set for `jwks_uri`: every stored key, the ones not signing yet included.
    func publishedKeys() async throws -> JWKSet {
        try await snapshot().published
    }

    /// The snapshot in use: the last one, or a new one when it is older than `maxAge`.
    func snapshot() async throws -> SigningKeySnapshot {
        let now = ContinuousClock.now
        if let fresh = state.withLock({ $0.snapshot }), now - fresh.loadedAt < maxAge { return fresh }
        return try await reload()
    }

    /// Reads the keys again now (joining a reload under way).
    @discardableResult
    func reload() async throws -> SigningKeySnapshot {
        let task = state.withLock { state in
            if let running = state.reloading { return running }
            let task = Task { [store] in
                do {
                    let snapshot = try await SigningKeySnapshot.load(from: store)
                    self.state.withLock { $0 = State(snapshot: snapshot, reloading: nil) }
                    return snapshot
                } catch {
                    self.state.withLock { $0.reloading = nil }
                    throw error
                }
            }
            state.reloading = task
            return task
        }
        return try await task.value
    }
}
