/// Where a statement can run: the pool (`PostgresClient`) or one open transaction. Code that
/// must work in both — a write that is sometimes part of a larger transaction — takes this.
public protocol PostgresQueryable: Sendable {
    func query(_ query: PostgresQuery) async throws -> [PostgresRow]
    @discardableResult
    func execute(_ query: PostgresQuery) async throws -> Int
}

extension PostgresClient: PostgresQueryable {}
extension PostgresTransaction: PostgresQueryable {}
