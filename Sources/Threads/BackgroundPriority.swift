import CLinux

/// How bcrypt's CPU-bound work is kept below the work that answers requests — the event loops
/// and PostgreSQL — without ever being starved (Benchmarks/RESULTS.md, 2026-11-23).
///
/// Two levels, because Linux schedules in two: with autogroups (the default on this kind of
/// machine), the kernel first shares each core between *sessions*, equally, and only then
/// between the threads of a session by their nice values. Thread priorities cannot reach
/// across sessions: SCHED_IDLE hashing threads (what this used to be) still took half of each
/// core from PostgreSQL, whose backends are another session, and a GET that waited on a
/// starved backend took up to 2 s.
///
/// - Threads: every `WorkerPool` thread runs at SCHED_BATCH, nice 5, for its whole life
///   (`enterForThisThread`). Against a nice-0 event loop in the same session it gets a quarter
///   of the core, and it never preempts a thread that just woke. It is never starved: beside a
///   busy neighbour a hash is ~4× slower, not stopped (SCHED_IDLE made it 50 s), and a pool
///   thread preempted while holding a lock runs again within milliseconds.
/// - Session: `til-server serve` lowers the process's autogroup to nice 5 (`lowerOwnSession`),
///   so that under contention PostgreSQL's session gets three times this server's share. Only
///   when the server leads its own session (systemd, a container, `setsid`); a shell it was
///   started from keeps its weight, and then only the thread level applies. It is an explicit
///   call at start-up, not a side effect of touching `WorkerPool.shared`: a test process or a
///   benchmark that hashes keeps its own priority unless it asks.
public enum BackgroundPriority {
    /// The nice value of pool threads, and of the server's own session (weight 335 vs 1024).
    static let nice: Int32 = 5

    /// Moves the calling thread to the background class. Lowering one's own priority needs no
    /// privilege; if the kernel refuses anyway, the thread simply stays at normal priority.
    static func enterForThisThread() {
        _ = clinux_set_background_priority(nice)
    }

    /// Lowers this process's session against other sessions, once, if the session is its own.
    /// A one-time setting: the kernel rate-limits and serialises changes of an autogroup.
    public static func lowerOwnSession() {
        _ = clinux_lower_own_autogroup(nice)
    }
}
