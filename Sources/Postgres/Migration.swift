/// A named, reversible schema change. Usually SQL statements; a closure when a step needs
/// computed values (bound as parameters, like every other value).
public struct Migration: Sendable {
    public typealias Step = @Sendable (PostgresTransaction) async throws -> Void

    public var name: String
    public var prepare: Step
    public var revert: Step

    public init(name: String, prepare: @escaping Step, revert: @escaping Step) {
        self.name = name
        self.prepare = prepare
        self.revert = revert
    }

    /// A migration of plain SQL statements, run in order.
    public init(name: String, prepare: [String], revert: [String]) {
        self.init(
            name: name,
            prepare: { tx in for statement in prepare { try await tx.simpleQuery(statement) } },
            revert: { tx in for statement in revert { try await tx.simpleQuery(statement) } })
    }
}
