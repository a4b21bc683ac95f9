import Logging
import Synchronization

/// Counts the answers the server gives before routing (`EarlyResponseCounts`) and writes them
/// to the log beside the application's access lines, at most
/// `maxEarlyResponseLogLinesPerSecond` a second: a flood of garbage or of slow clients leaves
/// a trace without becoming a flood of lines. The lines left out are summed up in one
/// `suppressed` line once their second is over.
///
final class EarlyResponseRecorder: Sendable {
    private let counted = Mutex(EarlyResponseCounts())
    private let rate: LogRateLimit
    private let logger: Logger

    init(logger: Logger, linesPerSecond: Int) {
        self.logger = logger
        rate = LogRateLimit(linesPerSecond: linesPerSecond)
    }

    var counts: EarlyResponseCounts { counted.withLock { $0 } }

    /// Counts and (within the rate) logs one answer: `"408 Request Timeout: <reason>"`.
    func record(_ status: HTTPStatus, reason: String, address: String?) {
        counted.withLock { $0.count(status) }
        let (write, suppressed) = rate.admit()
        logSuppressed(suppressed)
        guard write else { return }
        logger.info(
            "\(status.code) \(status.reasonPhrase): \(reason)",
            metadata: ["address": .string(address ?? "-"), "answered": "before routing"])
    }

    /// Writes the summary of a finished second in which lines were left out (called by the
    /// loops' ticks, so the summary also comes when the flood has stopped).
    func flushSummary() {
        logSuppressed(rate.closeWindow())
    }

    private func logSuppressed(_ count: Int) {
        guard count > 0 else { return }
        logger.info("suppressed \(count) early response lines", metadata: ["suppressed": "\(count)"])
    }
}
