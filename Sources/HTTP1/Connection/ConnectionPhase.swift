/// Where an `HTTPConnection` is in its life: reading, answering, or on its way out.
enum ConnectionPhase {
    /// Waiting for (more of) a request.
    case reading
    /// A handler task is running; further pipelined bytes wait in the parser.
    case responding
    /// The last response is queued; close once it is written.
    case closingAfterWrite
    /// The peer left while a handler ran: socket closed, handler cancelled. Still counted
    /// in `openConnections` until the handler returns, so a graceful shutdown waits for it.
    case abandoned
    /// Write side shut; reading and discarding until the peer closes (avoids a reset
    /// that could destroy the error response we just sent).
    case lingering(since: ContinuousClock.Instant)
    case closed
}
