import CLinux
import Glibc
import Synchronization

/// A fixed set of threads for blocking, CPU-heavy work (bcrypt), so that such work never runs
/// on an I/O thread or starves Swift's cooperative pool. Jobs start in FIFO order, at most
/// `threadCount` at a time; the rest wait in the queue, costing no thread. The threads run in
/// the background scheduling class (`BackgroundPriority`): below the event loops, never starved.
///
/// The threads live as long as the process (each holds the pool), so make one pool per kind
/// of work, not one per request.
public final class WorkerPool: Sendable {
    /// One thread per core: bcrypt is CPU-bound, and more threads would only add switching.
    /// Touching it changes no priority but its own threads'; a server that wants its whole
    /// session below PostgreSQL's says so at start (`BackgroundPriority.lowerOwnSession()`).
    public static let shared = WorkerPool(threadCount: OSThread.coreCount)

    public let threadCount: Int
    private let state = Mutex(State())
    /// Counts queued jobs: one `signal` per submit, one `wait` per job taken.
    private let queued = Semaphore()

    public init(threadCount: Int) {
        self.threadCount = max(1, threadCount)
        for index in 0..<self.threadCount {
            do {
                try OSThread.detach(name: "til-worker-\(index)") { [self] in work() }
            } catch {
                fatalError("\(error)")
            }
        }
    }

    /// Runs `work` on a pool thread and returns its result or rethrows its error.
    ///
    /// If the calling task is cancelled before a thread picks the job up, the job is dropped
    /// and this throws `CancellationError`: nobody waits for a login whose client has gone.
    /// A job already running finishes.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await run(admittedIf: { _ in }, work)
    }

    /// Like `run(_:)`, but `admit` first sees the pool's `Load` and may throw to refuse the
    /// job: then nothing is queued and the error is rethrown at once. `admit` runs under the
    /// queue's lock, so a bound it checks holds however many callers arrive together; keep it
    /// to arithmetic.
    public func run<T: Sendable>(
        admittedIf admit: (Load) throws -> Void,
        _ work: @escaping @Sendable () throws -> T
    ) async throws -> T {
        try Task.checkCancellation()
        let ticket = Ticket()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let job: Job = { [self] in
                    if ticket.isCancelled.load(ordering: .relaxed) {
                        finished(after: nil)
                        return continuation.resume(throwing: CancellationError())
                    }
                    let start = ContinuousClock.now
                    let result = Result(catching: work)
                    // Before resuming: the caller's next job must already see this thread free.
                    finished(after: start.duration(to: .now))
                    continuation.resume(with: result)
                }
                do {
                    try submit(job, admit: admit)
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            ticket.isCancelled.store(true, ordering: .relaxed)
        }
    }

    /// Jobs waiting for a thread (for tests and metrics).
    public var pendingCount: Int { state.withLock { $0.jobs.count } }

    /// The queue, the running jobs and the recent mean job time, read together.
    public var load: Load { state.withLock { $0.load(threadCount: threadCount) } }

    /// A queued job. It calls `finished(after:)` itself, before it resumes its caller.
    private typealias Job = @Sendable () -> Void

    private struct State {
        var jobs = FIFO<Job>()
        var running = 0
        var jobTime = RecentMean()

        func load(threadCount: Int) -> Load {
            Load(queued: jobs.count, running: running, threadCount: threadCount, meanJobTime: jobTime.value)
        }
    }

    /// Lets `onCancel`, which runs on the cancelling thread, tell the queued job to skip.
    private final class Ticket: Sendable {
        let isCancelled = Atomic(false)
    }

    private func submit(_ job: @escaping Job, admit: (Load) throws -> Void) throws {
        try state.withLock { state in
            try admit(state.load(threadCount: threadCount))
            state.jobs.push(job)
        }
        queued.signal()
    }

    private func work() -> Never {
        BackgroundPriority.enterForThisThread()
        while true {
            queued.wait()
            // Never nil: every signal follows exactly one push.
            guard let job = state.withLock({ state in
                state.jobs.pop().map { job in state.running += 1; return job }
            }) else { continue }
            job()
        }
    }

    /// Frees the job's thread in the books; `elapsed` is nil for a dropped job, which says
    /// nothing about how long jobs take.
    private func finished(after elapsed: Duration?) {
        state.withLock { state in
            state.running -= 1
            if let elapsed { state.jobTime.add(elapsed) }
        }
    }
}
