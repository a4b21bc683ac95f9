import Web
import Logging
import Postgres

/// The `slow database lease` line (issue 22): a pooled connection waited for and held longer
/// than `threshold`, at `notice`, with where the time went: waiting for the connection, inside
/// its statements, and the rest of the time it was held (its request's own work, and waiting
/// for its loop to run that request again). At most 10 lines a second: a stall slows many
/// requests at once, and one line each would flood the log just when it is read.
/// The request's own `slow request` line (Web) comes right after, with its total.
enum SlowLeaseLog {
    static let threshold: Duration = .milliseconds(100)

    static func report(to logger: Logger, database: String) -> SlowLeaseReport {
        let lines = LogRateLimit(linesPerSecond: 10)
        return SlowLeaseReport(threshold: threshold) { lease in
            let (write, suppressed) = lines.admit()
            guard write else { return }
            logger.notice("slow database lease", metadata: [
                "database": .string(database),
                "acquire_ms": .string(milliseconds(lease.acquireWait)),
                "database_ms": .string(milliseconds(lease.inStatements)),
                "other_ms": .string(milliseconds(lease.held - lease.inStatements)),
                "statements": .string(String(lease.statements)),
                "suppressedSinceLastLine": .string(String(suppressed)),
            ])
        }
    }

    private static func milliseconds(_ duration: Duration) -> String {
        String(Double(duration / .microseconds(1)) / 1000)
    }
}
