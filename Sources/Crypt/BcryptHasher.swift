public import Threads

/// Password hashing for servers: bcrypt at a configured cost, on a `WorkerPool`.
///
/// A hash at cost 12 takes a core for ~0.2 s. Run on an event loop it would stall every
/// connection of that loop; run on Swift's cooperative pool it would starve other tasks. The
/// worker pool bounds it to one job per core and queues the rest; `admission` bounds the queue,
/// refusing with `BcryptError.overloaded` at once when it is full or too slow to wait in.
public struct BcryptHasher: Sendable {
    public let cost: Int
    public let admission: Admission
    private let pool: WorkerPool

    /// `cost` is checked when hashing (`BcryptError.invalidCost`), like `Bcrypt.hash`.
    public init(cost: Int = Bcrypt.defaultCost, pool: WorkerPool = .shared, admission: Admission = Admission()) {
        self.cost = cost
        self.pool = pool
        self.admission = admission
    }

    /// How busy the hashing pool is now (its queue length is a metric).
    public var load: WorkerPool.Load { pool.load }

    /// A new `$2b$` hash of `password`. Bad input, or a full queue (`.overloaded`), throws at
    /// once, without queueing.
    public func hash(_ password: String) async throws -> String {
        try Bcrypt.check(password)
        guard Bcrypt.costs.contains(cost) else { throw BcryptError.invalidCost(cost) }
        let cost = cost
        return try await pool.run(admittedIf: admission.check) { try Bcrypt.hash(password, cost: cost) }
    }

    /// Whether `password` matches `hash` (`$2a$`, `$2b$` or `$2y$`); false for a malformed hash.
    /// Throws `.overloaded` at once, without hashing, when `admission` refuses the work.
    public func verify(_ password: String, created hash: String) async throws -> Bool {
        try Bcrypt.check(password)
        guard Bcrypt.isWellFormed(hash) else { return false }
        return try await pool.run(admittedIf: admission.check) { try Bcrypt.verify(password, created: hash) }
    }
}
