import Synchronization

/// The bounded set of connections: idle ones on a stack (the warmest is reused first),
/// new ones opened lazily up to `poolSize`, and callers beyond that queued FIFO until a
/// connection is released or their deadline passes (`databaseBusy`).
final class ConnectionPool: Sendable {
    private struct Waiter {
        let id: Int
        let deadline: ContinuousClock.Instant
        let continuation: CheckedContinuation<PooledConnection, any Error>
    }

    private struct State {
        var idle: [PooledConnection] = []
        var open = 0
        var nextID = 0
        var waiters: [Waiter] = []
        var closed = false
    }

    private let configuration: PostgresConfiguration
    private let state = Mutex(State())

    init(configuration: PostgresConfiguration) {
        self.configuration = configuration
    }

    /// A connection for the caller's exclusive use; give it back with `release`.
    func acquire() async throws -> PooledConnection {
        enum Decision { case reuse(PooledConnection), open(Int), wait }
        let decision = try state.withLock { state -> Decision in
            guard !state.closed else { throw PostgresError(.closed, message: "The database client was shut down.") }
            if let connection = state.idle.popLast() { return .reuse(connection) }
            guard state.open < configuration.poolSize else { return .wait }
            state.open += 1
            state.nextID += 1
            return .open(state.nextID)
        }
        switch decision {
        case .reuse(let connection): return connection
        case .open(let id): return PooledConnection(id: id, configuration: configuration)
        case .wait:
            let deadline = ContinuousClock.now + configuration.acquireTimeout
            return try await withCheckedThrowingContinuation { continuation in
                let handOff = state.withLock { state -> PooledConnection? in
                    // A connection may have come back between the two locks.
                    if let connection = state.idle.popLast() { return connection }
                    state.nextID += 1
                    state.waiters.append(Waiter(id: state.nextID, deadline: deadline, continuation: continuation))
                    return nil
                }
                if let handOff { continuation.resume(returning: handOff) }
            }
        }
    }

    /// Returns a connection: to the longest waiter, else to the idle stack. A broken one is
    /// closed and its slot freed (a waiter then gets a fresh connection).
    func release(_ connection: PooledConnection, broken: Bool) {
        enum Next { case give(PooledConnection, CheckedContinuation<PooledConnection, any Error>), none }
        let next = state.withLock { state -> Next in
            if broken || state.closed {
                state.open -= 1
                guard !state.closed, !state.waiters.isEmpty else { return .none }
                let waiter = state.waiters.removeFirst()
                state.open += 1
                state.nextID += 1
                return .give(PooledConnection(id: state.nextID, configuration: configuration), waiter.continuation)
            }
            if !state.waiters.isEmpty {
                return .give(connection, state.waiters.removeFirst().continuation)
            }
            state.idle.append(connection)
            return .none
        }
        if broken || state.withLock({ $0.closed }) { connection.close() }
        if case .give(let handed, let continuation) = next { continuation.resume(returning: handed) }
    }

    /// Fails the waiters whose deadline passed; called periodically by the client.
    func expireWaiters(now: ContinuousClock.Instant = .now) {
        let expired = state.withLock { state -> [Waiter] in
            let expired = state.waiters.filter { $0.deadline <= now }
            state.waiters.removeAll { $0.deadline <= now }
            return expired
        }
        for waiter in expired {
            waiter.continuation.resume(throwing: PostgresError(
                .databaseBusy, message: "No database connection became free within \(configuration.acquireTimeout)."))
        }
    }

    /// Closes idle connections and fails waiters; busy connections close when released.
    func close() {
        let (idle, waiters) = state.withLock { state in
            state.closed = true
            defer { state.idle = []; state.waiters = [] }
            state.open -= state.idle.count
            return (state.idle, state.waiters)
        }
        idle.forEach { $0.close() }
        for waiter in waiters {
            waiter.continuation.resume(throwing: PostgresError(.closed, message: "The database client was shut down."))
        }
    }

    var openCount: Int { state.withLock { $0.open } }
}
