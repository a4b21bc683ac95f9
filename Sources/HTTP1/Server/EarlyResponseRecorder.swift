import Logging
import Synchronization

/// Counts the answers the server gives before routing (`EarlyResponseCounts`) and writes them
/// to the log beside the application's access lines, at most
/// `maxEarlyResponseLogLinesPerSecond` a second: a flood of garbage or of slow clients leaves
/// a trace without becoming a flood of lines. The lines left out are summed up in one
/// `suppressed` line once their second is over.
///
/// Shared by every loop; a `Mutex` is enough for answers that each cost a syscall or more.
final class EarlyResponseRecorder: Sendable {
    private struct State {
        var counts = EarlyResponseCounts()
        var windowStart = ContinuousClock.now
        var linesInWindow = 0
        var suppressed = 0
    }

    private let state = Mutex(State())
    private let logger: Logger
    private let linesPerSecond: Int

    init(logger: Logger, linesPerSecond: Int) {
        self.logger = logger
        self.linesPerSecond = linesPerSecond
    }

    var counts: EarlyResponseCounts { state.withLock { $0.counts } }

    /// Counts and (within the rate) logs one answer: `"408 Request Timeout: <reason>"`.
    func record(_ status: HTTPStatus, reason: String, address: String?) {
        let now = ContinuousClock.now
        let (logIt, suppressed) = state.withLock { state -> (Bool, Int) in
            state.counts.count(status)
            let suppressed = Self.closeWindowIfOver(&state, now: now)
            guard state.linesInWindow < linesPerSecond else {
                state.suppressed += 1
                return (false, suppressed)
            }
            state.linesInWindow += 1
            return (true, suppressed)
        }
        logSuppressed(suppressed)
        guard logIt else { return }
        logger.info(
            "\(status.code) \(status.reasonPhrase): \(reason)",
            metadata: ["address": .string(address ?? "-"), "answered": "before routing"])
    }

    /// Writes the summary of a finished second in which lines were left out (called by the
    /// loops' ticks, so the summary also comes when the flood has stopped).
    func flushSummary() {
        let now = ContinuousClock.now
        logSuppressed(state.withLock { Self.closeWindowIfOver(&$0, now: now) })
    }

    /// Starts a new window once a second has passed; the count of lines the old one left out.
    private static func closeWindowIfOver(_ state: inout State, now: ContinuousClock.Instant) -> Int {
        guard now - state.windowStart >= .seconds(1) else { return 0 }
        defer {
            state.windowStart = now
            state.linesInWindow = 0
            state.suppressed = 0
        }
        return state.suppressed
    }

    private func logSuppressed(_ count: Int) {
        guard count > 0 else { return }
        logger.info("suppressed \(count) early response lines", metadata: ["suppressed": "\(count)"])
    }
}
