import CLinux

/// Runs a pure computation (bcrypt's key schedule) at SCHED_IDLE: it gets every cycle the
/// event loops leave and never delays them, so ordinary requests keep their latency during a
/// login storm.
///
/// Only the computation itself may run idle — no locks, no `malloc`/`free` inside `body`. A
/// preempted idle thread holding a lock the loops need (a queue's `Mutex`, the Swift runtime's
/// task locks, a malloc arena) would stall them for as long as the cores stay busy: priority
/// inversion, seen as 300 ms+ tails before this was narrowed to the computation alone.
/// Where the process may not return from SCHED_IDLE (no root, RLIMIT_NICE below 20), `body`
/// simply runs at normal priority.
enum BackgroundPriority {
    /// Checked without touching any thread: a thread that went idle and could not come back
    /// would be exactly the inversion this avoids.
    static let isAvailable: Bool = clinux_can_leave_idle_priority() == 1

    static func computing<T>(_ body: () -> T) -> T {
        guard isAvailable else { return body() }
        clinux_set_idle_priority()
        defer { clinux_set_normal_priority() }
        return body()
    }
}
