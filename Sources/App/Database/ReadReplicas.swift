import Logging
import Postgres
import Synchronization

/// The streaming replicas of `DATABASE_READ_URL`, taken in turn for public reads.
///
/// A replica that fails (unreachable, pool exhausted, connection lost, statement cancelled by
/// recovery) is set aside at once and the read runs on the primary; later reads skip it
/// without trying, so a dead replica costs one failed attempt, not a connect timeout per
/// request. A background probe (`SELECT 1` every `retryInterval`) brings it back.
final class ReadReplicas: Sendable {
    /// How often reads went where (for logs and tests).
    struct Counts: Sendable, Equatable {
        var servedByReplica = 0
        var fellBackToPrimary = 0
        var replicaFailures = 0
    }

    private struct State {
        var next = 0
        var down: [Bool]
        var probes: [Int: Task<Void, Never>] = [:]
        var counts = Counts()
        var closed = false
    }

    let clients: [PostgresClient]
    private let retryInterval: Duration
    private let logger: Logger
    private let state: Mutex<State>

    /// Replica pools wait less than the primary's: a replica that cannot answer within a
    /// second (connect or free connection) is better skipped than waited for.
    init(configurations: [PostgresConfiguration], retryInterval: Duration = .seconds(2), logger: Logger) {
        clients = configurations.enumerated().map { index, configuration in
            var configuration = configuration
            configuration.connectTimeout = min(configuration.connectTimeout, .seconds(2))
            configuration.acquireTimeout = min(configuration.acquireTimeout, .seconds(1))
            let slowLeases = SlowLeaseLog.report(to: logger, database: "replica \(index + 1)")
            return PostgresClient(configuration: configuration, logger: logger, slowLeases: slowLeases)
        }
        self.retryInterval = retryInterval
        self.logger = logger
        state = Mutex(State(down: Array(repeating: false, count: configurations.count)))
    }

    /// Rows of `query` from the next healthy replica, else from `primary`.
    func query(_ query: PostgresQuery, fallback primary: PostgresClient) async throws -> [PostgresRow] {
        if let index = pick() {
            do {
                let rows = try await clients[index].query(query)
                state.withLock { $0.counts.servedByReplica += 1 }
                return rows
            } catch let error as PostgresError where Self.isReplicaTrouble(error) {
                setAside(index, because: error)
            }
        }
        state.withLock { $0.counts.fellBackToPrimary += 1 }
        return try await primary.query(query)
    }

    var counts: Counts { state.withLock { $0.counts } }

    /// Stops the probes and closes every replica pool.
    func shutdown() async {
        let probes = state.withLock { state in
            state.closed = true
            defer { state.probes = [:] }
            return state.probes.values
        }
        probes.forEach { $0.cancel() }
        for client in clients { await client.shutdown() }
    }

    /// The next replica not set aside, round-robin; nil when all are down.
    private func pick() -> Int? {
        state.withLock { state in
            for offset in 0..<clients.count {
                let index = (state.next + offset) % clients.count
                if !state.down[index] {
                    state.next = index + 1
                    return index
                }
            }
            return nil
        }
    }

    /// Failures that say "this replica cannot serve now" rather than "this query is wrong":
    /// the primary would answer the same query.
    private static func isReplicaTrouble(_ error: PostgresError) -> Bool {
        error.isUnavailable || error.sqlState == recoveryConflict || error.sqlState == .adminShutdown
    }

    /// 40001: a standby cancelled the statement because replayed WAL removed rows it needed.
    private static let recoveryConflict = SQLState(rawValue: "40001")

    private func setAside(_ index: Int, because error: PostgresError) {
        let firstFailure = state.withLock { state -> Bool in
            state.counts.replicaFailures += 1
            guard !state.down[index], !state.closed else { return false }
            state.down[index] = true
            return true
        }
        guard firstFailure else { return }
        logger.warning("read replica set aside; its reads go to the primary", metadata: [
            "replica": "\(index)", "error": "\(error)",
        ])
        let task = Task { [self] in await probe(index) }
        state.withLock { $0.probes[index] = task }
    }

    /// Retries the replica every `retryInterval` until it answers (or shutdown).
    private func probe(_ index: Int) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: retryInterval)
            guard !Task.isCancelled, !state.withLock({ $0.closed }) else { return }
            if (try? await clients[index].query("SELECT 1 AS ok")) != nil {
                state.withLock { $0.down[index] = false }
                logger.notice("read replica back in service", metadata: ["replica": "\(index)"])
                return
            }
        }
    }
}
