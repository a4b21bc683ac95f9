/// One-shot timers of an event loop, kept sorted by deadline (a loop holds few at a time:
/// one per database pool's wait queue and per connect in progress; HTTP connections use `tick`).
///
/// Loop-confined like the rest of the loop's state.
struct LoopTimers {
    private struct Timer {
        let deadline: ContinuousClock.Instant
        let work: () -> Void
    }

    private var timers: [Timer] = []

    /// Inserts after every timer due no later (binary search; timers added in deadline
    /// order, the usual case, land at the end).
    mutating func add(at deadline: ContinuousClock.Instant, _ work: @escaping () -> Void) {
        var low = 0, high = timers.count
        while low < high {
            let middle = (low + high) / 2
            if timers[middle].deadline <= deadline { low = middle + 1 } else { high = middle }
        }
        timers.insert(Timer(deadline: deadline, work: work), at: low)
    }

    /// Milliseconds until the earliest timer (rounded up), capped at `limit`.
    func waitMilliseconds(now: ContinuousClock.Instant, limit: Int32) -> Int32 {
        guard let first = timers.first else { return limit }
        let remaining = first.deadline - now
        guard remaining > .zero else { return 0 }
        let (seconds, attoseconds) = remaining.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(min(Int64(limit), milliseconds))
    }

    /// Removes and returns the work of every timer due at `now`.
    mutating func takeDue(now: ContinuousClock.Instant) -> [() -> Void] {
        let due = timers.prefix { $0.deadline <= now }
        guard !due.isEmpty else { return [] }
        timers.removeFirst(due.count)
        return due.map(\.work)
    }

    mutating func removeAll() { timers.removeAll() }
}
