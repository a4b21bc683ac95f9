import Dispatch
import Foundation
import Synchronization

/// A dedicated OS thread that owns one libpq connection and runs jobs on it in order.
///
/// libpq calls block; here they block only this thread, never an event loop or Swift's
/// cooperative pool. Callers await a job's result through a continuation.
final class PooledConnection: Sendable {
    let id: Int
    private let queue = JobQueue()
    private let box: ConnectionBox

    init(id: Int, configuration: PostgresConfiguration) {
        self.id = id
        box = ConnectionBox(configuration: configuration)
        let thread = Thread { [queue] in
            while let job = queue.next() { job() }
        }
        thread.name = "postgres-\(id)"
        thread.start()
    }

    /// Runs `body` with the connection (opening it first if needed) on this connection's thread.
    func run<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        let box = box
        return try await withCheckedThrowingContinuation { continuation in
            submit { continuation.resume(with: Result { try body(box.connection()) }) }
        }
    }

    /// Whether the connection can be reused (false after it broke or failed to open).
    func isUsable() async -> Bool {
        (try? await run { $0.isUsable }) ?? false
    }

    /// Closes the connection and ends the thread once queued jobs are done.
    func close() {
        let box = box
        submit { box.close() }
        queue.finish()
    }

    private func submit(_ job: @escaping @Sendable () -> Void) {
        queue.append(job)
    }
}

/// A FIFO of jobs for one thread: a `Mutex`-guarded array plus a semaphore to sleep on.
private final class JobQueue: Sendable {
    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let available = DispatchSemaphore(value: 0)

    func append(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.append(job) }
        available.signal()
    }

    /// Ends the thread once the jobs queued so far have run.
    func finish() {
        available.signal()
    }

    /// The next job, waiting for one; nil after `finish()` with nothing left.
    func next() -> (@Sendable () -> Void)? {
        available.wait()
        return jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }
}

/// Holds the `PostgresConnection` of a `PooledConnection`.
///
/// `@unchecked Sendable` is sound because `connection()` and `close()` are only called from
/// jobs of the owning `PooledConnection`, which all run serially on its single thread.
private final class ConnectionBox: @unchecked Sendable {
    private let configuration: PostgresConfiguration
    private var current: PostgresConnection?

    init(configuration: PostgresConfiguration) {
        self.configuration = configuration
    }

    func connection() throws -> PostgresConnection {
        if let current { return current }
        let opened = try PostgresConnection(configuration: configuration)
        current = opened
        return opened
    }

    func close() {
        current = nil
    }
}
