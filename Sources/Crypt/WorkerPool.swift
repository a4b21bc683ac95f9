import CLinux
import Dispatch
import Glibc
import Foundation
import Synchronization

/// A fixed set of threads for blocking, CPU-heavy work (bcrypt), so that such work never
/// runs on an I/O thread or starves Swift's cooperative pool. Jobs run in FIFO order; at
/// most `threadCount` at a time.
public final class WorkerPool: Sendable {
    /// One thread per core: bcrypt is CPU-bound, more threads would only add switching.
    public static let shared = WorkerPool(threadCount: ProcessInfo.processInfo.activeProcessorCount)

    public let threadCount: Int
    private let queue = Mutex<[@Sendable () -> Void]>([])
    private let available = DispatchSemaphore(value: 0)

    public init(threadCount: Int) {
        self.threadCount = max(1, threadCount)
        for index in 0..<self.threadCount {
            let thread = Thread { [self] in
                // Below the event loops: while bcrypt saturates the cores, ordinary requests
                // still get the CPU first (logins only slow down when the loops are busy).
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(clinux_gettid()), 5)
                work()
            }
            thread.name = "worker-\(index)"
            thread.start()
        }
    }

    /// Runs `job` on a pool thread and returns its result.
    public func run<T: Sendable>(_ job: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            submit { continuation.resume(with: Result { try job() }) }
        }
    }

    /// Jobs waiting for a thread (for tests and metrics).
    public var pendingCount: Int { queue.withLock { $0.count } }

    private func submit(_ job: @escaping @Sendable () -> Void) {
        queue.withLock { $0.append(job) }
        available.signal()
    }

    private func work() {
        while true {
            available.wait()
            let job = queue.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            job?()
        }
    }
}
