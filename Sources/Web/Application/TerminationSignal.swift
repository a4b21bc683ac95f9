import Glibc
import Threads

/// Waits for SIGINT or SIGTERM with the self-pipe trick: the handler only writes the signal
/// number to a pipe (async-signal-safe), and a plain thread blocked on the pipe resumes the
/// waiting task. No signal ever kills the process mid-request.
enum TerminationSignal {
    /// Created before any handler is installed, never closed.
    private static let pipeFDs: (read: Int32, write: Int32) = {
        var fds: [Int32] = [-1, -1]
        precondition(pipe(&fds) == 0, "pipe failed")
        return (fds[0], fds[1])
    }()

    static func wait() async -> Int32 {
        let fds = pipeFDs
        for number in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(TerminationSignal.pipeFDs.write, &byte, 1)
            }
            sigaction(number, &action, nil)
        }
        return await withCheckedContinuation { continuation in
            do {
                try OSThread.detach(name: "til-signals") {
                    var byte: UInt8 = 0
                    while read(fds.read, &byte, 1) < 0, errno == EINTR {}
                    continuation.resume(returning: Int32(byte))
                }
            } catch {
                fatalError("\(error)")
            }
        }
    }
}
