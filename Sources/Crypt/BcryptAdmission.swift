import Threads

extension BcryptHasher {
    /// When to refuse a hash at once instead of queueing it: a server under a login storm
    /// answers "try later" (503 + Retry-After) in microseconds, rather than let every login
    /// wait longer and longer for a CPU it cannot have.
    public struct Admission: Sendable, Equatable {
        /// Most hashes that may wait for a thread; one more is refused.
        public var maxQueued: Int
        /// Longest estimated wait (`WorkerPool.Load.estimatedWait`) a new hash may face.
        public var maxWait: Duration

        public init(maxQueued: Int = 64, maxWait: Duration = .seconds(5)) {
            self.maxQueued = maxQueued
            self.maxWait = maxWait
        }

        /// Throws `BcryptError.overloaded` when a new hash would have to wait and `maxQueued`
        /// hashes already wait, or when its estimated wait exceeds `maxWait`. Retry-After is
        /// that estimate rounded up to whole seconds, at least 1.
        func check(_ load: WorkerPool.Load) throws(BcryptError) {
            let wait = load.estimatedWait
            guard (load.mustWait && load.queued >= maxQueued) || wait > maxWait else { return }
            throw .overloaded(retryAfter: Self.wholeSecondsRoundedUp(wait))
        }

        static func wholeSecondsRoundedUp(_ duration: Duration) -> Int {
            let (seconds, attoseconds) = duration.components
            return max(1, Int(seconds) + (attoseconds > 0 ? 1 : 0))
        }
    }
}
