import Synchronization

/// The backpressure rule for one connection's unsent output. Responses are built whole, so
/// the next pipelined request is not even parsed while the connection's unsent output is
/// above `outputHighWaterBytes` (until it falls to `outputLowWaterBytes`), nor, while the
/// server as a whole holds `maxPendingOutputBytes`, until this connection's output is fully
/// sent. The unread requests stay in the kernel, whose full buffers slow the client down.
struct OutputBackpressure {
    /// Above the high-water mark and not yet back to the low-water mark.
    private var paused = false
    /// Unsent output last added to the server-wide count (`ServerState.pendingOutputBytes`).
    private var counted = 0

    /// False leaves the next request unread, with `pending` bytes still unsent.
    mutating func mayTakeNextRequest(pending: Int, state: ServerState) -> Bool {
        if pending > state.limits.outputHighWaterBytes {
            paused = true
        } else if pending <= state.limits.outputLowWaterBytes {
            paused = false
        }
        return !paused && (pending == 0 || !state.isOverOutputBudget)
    }

    /// Brings the server-wide count of unsent bytes up to date with this connection's `pending`.
    mutating func account(pending: Int, state: ServerState) {
        guard pending != counted else { return }
        state.pendingOutputBytes.add(pending - counted, ordering: .relaxed)
        counted = pending
    }
}
