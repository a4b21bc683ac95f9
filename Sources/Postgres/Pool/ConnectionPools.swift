import Glibc
import Sockets
import Synchronization
import Threads

/// Finds the connection pool of an event loop, creating it on first use.
///
/// A request handler runs on its server's event loop and uses that loop's own pool, so its
/// statements never leave the thread. Callers on no loop at all (migrations, background jobs,
/// tests) are sent to loops this client starts for them, round-robin.
final class ConnectionPools: Sendable {
    private struct State {
        /// The loops that keep a pool of this client, and the pools' counters.
        var poolLoops: [EventLoop] = []
        var counters: [PoolCounters] = []
        var ownLoops: [EventLoop] = []
        var nextOwnLoop = 0
        var shutDown = false
    }

    private let configuration: PostgresConfiguration
    private let slowLeases: SlowLeaseReport?
    private let backoff = ReconnectBackoff()
    private let state = Mutex(State())
    /// Where each loop keeps this client's pool.
    private let poolKey = EventLoop.LocalKey()
    /// Connections per loop: the pool size shared out over one loop per core.
    private let capacityPerLoop: Int
    private let ownLoopCount: Int

    init(configuration: PostgresConfiguration, slowLeases: SlowLeaseReport?) {
        self.configuration = configuration
        self.slowLeases = slowLeases
        let cores = OSThread.coreCount
        capacityPerLoop = max(1, (configuration.poolSize + cores - 1) / cores)
        ownLoopCount = min(cores, max(1, configuration.poolSize))
    }

    /// The sums over every loop's pool, read without touching the loops.
    var statistics: PoolStatistics {
        state.withLock { state in
            state.counters.reduce(into: PoolStatistics()) { sum, counters in
                sum.inUse += counters.inUse.load(ordering: .relaxed)
                sum.waiting += counters.waiting.load(ordering: .relaxed)
                sum.acquireTimeouts += counters.acquireTimeouts.load(ordering: .relaxed)
            }
        }
    }

    /// Every loop's lease statistics, summed (each loop's lock is taken once).
    var leaseStatistics: LeaseStatistics {
        let counters = state.withLock { $0.counters }
        return counters.reduce(into: LeaseStatistics()) { $0.add($1.leases.snapshot) }
    }

    /// The pool of `loop` (the caller runs on it), kept in the loop's own storage: no lock on
    /// the way to a connection, only when a loop gets its pool.
    func pool(for loop: EventLoop) throws -> LoopConnectionPool {
        try loop.local(poolKey) {
            let counters = PoolCounters()
            try state.withLock { state in
                guard !state.shutDown else { throw PostgresError(.closed, message: "The database client was shut down.") }
                state.poolLoops.append(loop)
                state.counters.append(counters)
            }
            return LoopConnectionPool(
                loop: loop, configuration: configuration, capacity: capacityPerLoop, backoff: backoff, counters: counters,
                slowLeases: slowLeases)
        }
    }

    /// One of the client's own loops, for a caller that runs on none, round-robin.
    func ownLoop() throws -> EventLoop {
        try state.withLock { state in
            let loops = try startedOwnLoops(&state)
            state.nextOwnLoop &+= 1
            return loops[state.nextOwnLoop % loops.count]
        }
    }

    /// The client's own loops, for callers that want to run on them.
    func ownLoops() throws -> [EventLoop] {
        try state.withLock { try startedOwnLoops(&$0) }
    }

    /// The client's own loops, started on first use (under the lock, so only once).
    private func startedOwnLoops(_ state: inout State) throws -> [EventLoop] {
        guard !state.shutDown else { throw PostgresError(.closed, message: "The database client was shut down.") }
        if state.ownLoops.isEmpty {
            for index in 0..<ownLoopCount {
                let loop = try EventLoop(index: index)
                try loop.start(name: "til-pg-\(index)") {}
                state.ownLoops.append(loop)
            }
        }
        return state.ownLoops
    }

    /// Closes every pool on its own loop (pools of loops that already stopped were closed
    /// with them), then stops the client's own loops.
    func shutdown() async {
        let (poolLoops, ownLoops) = state.withLock { state in
            state.shutDown = true
            return (state.poolLoops, state.ownLoops)
        }
        let key = poolKey
        for loop in poolLoops {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                let accepted = loop.execute {
                    loop.removeLocal(key, as: LoopConnectionPool.self)?.close()
                    done.resume()
                }
                if !accepted { done.resume() }
            }
        }
        ownLoops.forEach { $0.stop() }
    }
}
