/// Password hashing for servers: bcrypt at a configured cost, on the worker pool.
public struct BcryptHasher: Sendable {
    public let cost: Int
    private let pool: WorkerPool

    public init(cost: Int = 12, pool: WorkerPool = .shared) {
        self.cost = cost
        self.pool = pool
    }

    public func hash(_ password: String) async throws -> String {
        let cost = cost
        return try await pool.run { try Bcrypt.hash(password, cost: cost) }
    }

    public func verify(_ password: String, created hash: String) async throws -> Bool {
        try await pool.run { try Bcrypt.verify(password, created: hash) }
    }
}
