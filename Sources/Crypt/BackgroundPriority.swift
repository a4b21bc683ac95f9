import CLinux

/// The scheduling class of `WorkerPool` threads: SCHED_BATCH at nice 5, set once when a
/// thread starts and kept for its whole life.
///
/// Why not SCHED_IDLE (what this used to be): an idle-class thread gets *nothing* while any
/// other thread wants the CPU, so two busy neighbours made a login wait 50 s; and switching a
/// thread between SCHED_IDLE and SCHED_OTHER around every hash made the kernel's EEVDF
/// bookkeeping leave ordinary runnable threads (a PostgreSQL backend, an event loop) waiting
/// up to half a second while the hashing threads ran (Benchmarks/RESULTS.md, 2026-11-23).
///
/// Nice 5 weighs 335 against a nice-0 thread's 1024: beside one busy neighbour a hash still
/// gets ~25 % of a core (a login ~4× slower, never starved), and beside an event loop the loop
/// gets three quarters of the core. SCHED_BATCH adds that a hashing thread never preempts a
/// thread that just woke: an event loop with a request to answer runs first. No lock is a
/// hazard any more: a preempted pool thread holding one runs again within milliseconds.
enum BackgroundPriority {
    /// The nice value of every pool thread (weight 335 vs 1024 at nice 0).
    static let nice: Int32 = 5

    /// Moves the calling thread to the background class. Lowering one's own priority needs no
    /// privilege; if the kernel refuses anyway, the thread simply stays at normal priority.
    static func enterForThisThread() {
        _ = clinux_set_background_priority(nice)
    }
}
