import Postgres

/// The database of the repositories that serve public reads (users, acronyms, categories):
/// their queries go to a read replica while an anonymous GET is answered (`PublicReads`),
/// to the primary otherwise; writes always go to the primary.
///
/// Auth (tokens, sessions, throttling) never holds one of these: it uses the primary's
/// `PostgresClient` directly, so no token check can see a lagging replica.
struct RoutedDatabase: PostgresQueryable {
    let primary: PostgresClient
    let replicas: ReadReplicas?

    func query(_ query: PostgresQuery) async throws -> [PostgresRow] {
        if let replicas, PublicReads.mayUseReplica {
            return try await replicas.query(query, fallback: primary)
        }
        return try await primary.query(query)
    }

    @discardableResult
    func execute(_ query: PostgresQuery) async throws -> Int {
        try await primary.execute(query)
    }
}
