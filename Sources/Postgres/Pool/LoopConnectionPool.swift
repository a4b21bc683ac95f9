import Sockets
import Synchronization

/// The connections one event loop owns: idle ones on a stack (the warmest is reused first),
/// new ones opened lazily up to `capacity`, and callers beyond that queued FIFO until a
/// connection comes back or their deadline passes (`databaseBusy`).
///
/// Loop-confined, like its connections: it lives in its loop's own storage
/// (`EventLoop.local`), every method runs on `loop` (checked), and it needs no lock.
final class LoopConnectionPool {
    /// A queued caller, confined to the loop like the pool.
    private final class Waiter {
        let deadline: ContinuousClock.Instant
        let continuation: CheckedContinuation<Void, any Error>
        /// What `release` handed over before resuming the caller: a connection, or nil when a
        /// slot freed up to open one. It waits here rather than travelling through the
        /// continuation, which would need it to be Sendable.
        var handed: PostgresConnection?

        init(deadline: ContinuousClock.Instant, continuation: CheckedContinuation<Void, any Error>) {
            self.deadline = deadline
            self.continuation = continuation
        }
    }

    let loop: EventLoop
    private let configuration: PostgresConfiguration
    private let capacity: Int
    private let backoff: ReconnectBackoff
    private var idle: [PostgresConnection] = []
    private var open = 0
    /// FIFO; all wait equally long, so deadlines grow from front to back.
    private var waiters: [Waiter] = []
    /// One timer for the whole queue, due at the front waiter's deadline (a timer per waiter
    /// cost a sorted insert per request under load).
    private var expiryScheduled = false
    private var closed = false
    /// For `PoolStatistics`: written only on `loop` (no contention, no lock), read by a
    /// metrics scrape from any thread.
    private let counters: PoolCounters

    private let slowLeases: SlowLeaseReport?

    init(
        loop: EventLoop, configuration: PostgresConfiguration, capacity: Int, backoff: ReconnectBackoff, counters: PoolCounters,
        slowLeases: SlowLeaseReport?
    ) {
        self.loop = loop
        self.counters = counters
        self.slowLeases = slowLeases
        self.configuration = configuration
        self.capacity = max(1, capacity)
        self.backoff = backoff
    }

    /// A connection for the caller's exclusive use; give it back with `release`.
    func acquire() async throws -> PostgresConnection {
        let start = ContinuousClock.now
        let connection = try await take()
        counters.inUse.add(1, ordering: .relaxed)
        let now = ContinuousClock.now
        connection.lease = Lease(acquireWait: now - start, handedOut: now)
        return connection
    }

    private func take() async throws -> PostgresConnection {
        precondition(loop.inEventLoop)
        while true {
            guard !closed else { throw PostgresError(.closed, message: "The database client was shut down.") }
            while let connection = idle.popLast() {
                if connection.isUsable { return connection }
                connection.close()
                open -= 1
            }
            if open < capacity { return try await openConnection() }
            if let handed = try await waitForConnection() { return handed }
        }
    }

    /// Takes a connection back: to the longest waiter, else onto the idle stack. A broken one
    /// is closed and its slot offered to a waiter.
    /// The lease's cost goes into the loop's statistics; a lease slower than the client's
    /// `SlowLeaseReport` threshold is reported too (in the caller's task, before it goes on).
    func release(_ connection: PostgresConnection) {
        precondition(loop.inEventLoop)
        counters.inUse.subtract(1, ordering: .relaxed)
        var lease = connection.lease
        lease.held = .now - lease.handedOut
        counters.leases.record(lease)
        if let slowLeases, lease.acquireWait + lease.held > slowLeases.threshold { slowLeases.report(lease) }
        guard !closed, connection.isUsable else {
            connection.close()
            open -= 1
            if !waiters.isEmpty { waiters.removeFirst().continuation.resume() }
            return
        }
        if !waiters.isEmpty {
            let waiter = waiters.removeFirst()
            waiter.handed = connection
            waiter.continuation.resume()
        } else {
            idle.append(connection)
        }
    }

    /// Closes idle connections and fails waiters; busy ones close when released.
    func close() {
        precondition(loop.inEventLoop)
        closed = true
        idle.forEach { $0.close() }
        open -= idle.count
        idle = []
        let failed = waiters
        waiters = []
        for waiter in failed {
            waiter.continuation.resume(throwing: PostgresError(.closed, message: "The database client was shut down."))
        }
    }

    private func openConnection() async throws -> PostgresConnection {
        open += 1
        do {
            try backoff.admitAttempt()
            let connection: PostgresConnection
            do {
                connection = try await PostgresConnection.open(configuration, on: loop)
            } catch {
                backoff.attemptFailed()
                throw error
            }
            backoff.attemptSucceeded()
            return connection
        } catch {
            open -= 1
            if !waiters.isEmpty { waiters.removeFirst().continuation.resume() }
            throw error
        }
    }

    private func waitForConnection() async throws -> PostgresConnection? {
        let deadline = ContinuousClock.now + configuration.acquireTimeout
        counters.waiting.add(1, ordering: .relaxed)
        defer { counters.waiting.subtract(1, ordering: .relaxed) }
        var waiter: Waiter?
        try await withCheckedThrowingContinuation { continuation in
            let queued = Waiter(deadline: deadline, continuation: continuation)
            waiters.append(queued)
            waiter = queued
            scheduleExpiry()
        }
        return waiter?.handed
    }

    private func scheduleExpiry() {
        guard !expiryScheduled, let first = waiters.first else { return }
        expiryScheduled = true
        loop.schedule(at: first.deadline) { [weak self] in
            guard let self else { return }
            self.expiryScheduled = false
            self.expireWaiters(now: .now)
            self.scheduleExpiry()
        }
    }

    /// Fails the waiters whose deadline passed with `databaseBusy`.
    private func expireWaiters(now: ContinuousClock.Instant) {
        let expired = waiters.prefix { $0.deadline <= now }
        guard !expired.isEmpty else { return }
        waiters.removeFirst(expired.count)
        counters.acquireTimeouts.add(expired.count, ordering: .relaxed)
        let timeout = configuration.acquireTimeout
        for waiter in expired {
            waiter.continuation.resume(throwing: PostgresError(
                .databaseBusy, message: "No database connection became free within \(timeout)."))
        }
    }
}
