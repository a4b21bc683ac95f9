import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive `flock(2)` on a file, shared by every process that locks the same path — and
/// by every open of it within one process, since the lock belongs to the open file.
///
/// Taken without blocking a thread: a busy lock is tried again every few milliseconds from an
/// async task, up to `timeout`. The kernel drops the lock when the descriptor closes, also
/// when the process dies, so a crashed `til` never leaves the store locked.
struct FileLock {
    let path: String

    func withLock<R: Sendable>(timeout: Duration, _ body: () async throws -> R) async throws -> R {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CredentialStoreError.failed("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let deadline = ContinuousClock.now + timeout
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { throw CredentialStoreError.failed("cannot lock \(path): \(String(cString: strerror(errno)))") }
            guard ContinuousClock.now < deadline else { throw CredentialStoreError.failed("\(path) stayed locked for \(timeout)") }
            try await Task.sleep(for: .milliseconds(5))
        }
        return try await body()
    }
}
