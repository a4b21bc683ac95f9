import Glibc

/// A counting semaphore over POSIX `sem_t`: the one blocking primitive `WorkerPool` needs
/// (`Synchronization.Mutex` has no condition variable to wait on).
///
/// `@unchecked Sendable` is safe because the only state is one `sem_t`, which POSIX specifies
/// for concurrent `sem_post`/`sem_wait` from any thread. The pointer to it is a `let`, set in
/// `init` before the semaphore can be shared; the `sem_t` stays at that heap address from
/// `sem_init` to `sem_destroy` (never moved or copied, as POSIX requires), and `deinit` runs
/// only when no thread can still hold a reference, so none can be waiting on it. It cannot be
/// confined instead: `WorkerPool`'s threads wait on it while any thread submits.
final class Semaphore: @unchecked Sendable {
    private let handle: UnsafeMutablePointer<sem_t>

    init(value: UInt32 = 0) {
        handle = .allocate(capacity: 1)
        guard sem_init(handle, 0, value) == 0 else { fatalError("sem_init failed: \(errno)") }
    }

    deinit {
        sem_destroy(handle)
        handle.deallocate()
    }

    func signal() {
        guard sem_post(handle) == 0 else { fatalError("sem_post failed: \(errno)") }
    }

    /// Blocks the calling thread until the count is positive, then decrements it.
    func wait() {
        while sem_wait(handle) != 0 {
            guard errno == EINTR else { fatalError("sem_wait failed: \(errno)") }
        }
    }
}
