import Glibc
import Synchronization
import Threads
import WebTesting

/// Keeps every thread of a `WorkerPool` busy, and `queued` jobs waiting behind them, until
/// `release()`: a login then finds the hashing queue full and is refused with 503, however
/// fast the machine hashes. The jobs are the test's own, so nothing depends on timing.
final class HeldWorkers: Sendable {
    private let gate = Gate()
    private let jobs = Mutex<[Task<Void, any Error>]>([])

    /// Returns once the pool reports every thread running one of these jobs and `queued` more
    /// waiting; throws when that does not happen within seconds (another job holds the pool).
    init(_ pool: WorkerPool = .shared, queued: Int) async throws {
        for _ in 0..<(pool.threadCount + queued) {
            let job = Task { [gate] in
                try await pool.run { while !gate.isOpen.load(ordering: .acquiring) { usleep(1_000) } }
            }
            jobs.withLock { $0.append(job) }
        }
        let held = await eventually { pool.load.running == pool.threadCount && pool.pendingCount == queued }
        guard held else {
            await release()
            throw NotHeld()
        }
    }

    /// Lets the jobs finish and waits until they have.
    func release() async {
        gate.isOpen.store(true, ordering: .releasing)
        for job in jobs.withLock({ $0 }) { _ = try? await job.value }
    }

    struct NotHeld: Error {}

    /// What the jobs poll (on the pool's threads) to know they may end.
    private final class Gate: Sendable {
        let isOpen = Atomic(false)
    }
}
