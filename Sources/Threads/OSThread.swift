import CLinux
import Glibc

/// The project's one way to start an OS thread: detached, named (so `top -H`, `perf` and gdb
/// say "til-loop-0" or "til-worker-1" instead of the name of whichever thread created it),
/// running `body` until it returns.
///
/// Event loops, bcrypt workers, the signal watcher and test helpers all start theirs here.
public enum OSThread {
    /// Cores this process's threads can run on (online processors, at least 1): what the
    /// event loops, the database pools and the bcrypt workers are sized by.
    public static var coreCount: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// Starts a thread named `name` (truncated to the kernel's 15 bytes) running `body`.
    public static func detach(name: String, _ body: @escaping @Sendable () -> Void) throws(ThreadStartError) {
        final class Start: Sendable {
            let name: String
            let body: @Sendable () -> Void
            init(name: String, body: @escaping @Sendable () -> Void) {
                self.name = name
                self.body = body
            }
        }
        // Passed to C retained, released by the new thread: it lives exactly as long as needed.
        let context = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { context in
            let start = Unmanaged<Start>.fromOpaque(context!).takeRetainedValue()
            _ = clinux_set_thread_name(start.name)
            start.body()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<Start>.fromOpaque(context).release()
            throw ThreadStartError(errno: status)
        }
        pthread_detach(thread)
    }
}

/// `pthread_create` refused (EAGAIN: a process or system thread limit).
public struct ThreadStartError: Error, CustomStringConvertible, Sendable {
    public let errno: Int32
    public var description: String { "cannot start a thread: \(String(cString: strerror(errno)))" }
}
