import Crypt
import Foundation
import Synchronization

/// Active introspection answers, reused for at most `lifetime` and never past the token's
/// `exp`, so a token revoked at TIL stops working here within `lifetime`.
///
/// - Keyed by the token's SHA-256 digest: a memory dump of this process holds no token.
/// - Only active answers are kept. An inactive one is final at TIL (revocation and expiry are
///   never undone), so caching it would be safe, but anyone can make up inactive tokens: kept,
///   they would push real entries out. Refusing a made-up token costs TIL one indexed lookup.
/// - At most `capacity` entries: when full, expired entries go first, then the one that
///   would expire soonest.
/// - A `Mutex` around a dictionary: the critical sections are a lookup or an insert, never an
///   `await`, so a lock beats an actor hop on every request.
final class IntrospectionCache: Sendable {
    struct Entry: Sendable {
        let result: IntrospectionResult
        let expires: Date
    }

    let lifetime: Duration
    let capacity: Int
    private let entries = Mutex<[String: Entry]>([:])

    init(lifetime: Duration, capacity: Int = 10_000) {
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// The answer stored for `token`, while it lives.
    func result(for token: String, now: Date = Date()) -> IntrospectionResult? {
        let key = Self.key(token)
        return entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard entry.expires > now else {
                entries[key] = nil
                return nil
            }
            return entry.result
        }
    }

    /// Keeps an active `result` until `min(now + lifetime, exp)`; ignores anything else. Pass
    /// the time the question was asked, not answered: the entry then ends no later than
    /// `lifetime` after TIL looked.
    func store(_ result: IntrospectionResult, for token: String, now: Date = Date()) {
        guard result.active, lifetime > .zero else { return }
        let (seconds, attoseconds) = lifetime.components
        var expires = now.addingTimeInterval(TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18)
        if let expiry = result.expiry { expires = min(expires, expiry) }
        guard expires > now else { return }
        let key = Self.key(token)
        let capacity = capacity
        entries.withLock { entries in
            if entries[key] == nil, entries.count >= capacity {
                entries = entries.filter { $0.value.expires > now }
                if entries.count >= capacity, let soonest = entries.min(by: { $0.value.expires < $1.value.expires }) {
                    entries[soonest.key] = nil
                }
            }
            entries[key] = Entry(result: result, expires: expires)
        }
    }

    var count: Int { entries.withLock { $0.count } }

    /// The keys held: digests, never tokens.
    var digests: [String] { entries.withLock { Array($0.keys) } }

    private static func key(_ token: String) -> String { SHA256.hex(of: token) }
}
