import CoreMetrics
import Logging
import Postgres
import Web

/// Where a request's time went (issue 22): waiting for a pooled database connection, inside
/// its statements, or on its event loop (everything else: parsing, handler code, and waiting
/// for the loop to run it again). Binds a `QueryTiming` to each request that may suspend, and
/// when the request is done:
/// - records the two database parts in `/metrics` histograms, for requests that used the
///   database (`til_db_acquire_wait_seconds`, `til_db_statement_seconds`), and how many round
///   trips it took (`til_db_statements_per_request`: an authenticated write should take one);
/// - writes one `notice` line for a request slower than `slowThreshold`, with the breakdown,
///   at most 10 a second (a stall affects many requests at once; one line per request would
///   flood the log just when it is read).
///
/// Synchronous routes (`/health`) pass straight through: they touch no database.
struct DatabaseTimingMiddleware: SynchronousMiddleware {
    static let slowThreshold: Duration = .milliseconds(100)
    static let acquireFamily = "til_db_acquire_wait_seconds"
    static let statementFamily = "til_db_statement_seconds"
    static let countFamily = "til_db_statements_per_request"
    static let help = [
        acquireFamily: "Per request that used the database: seconds spent waiting for a pooled connection.",
        statementFamily: "Per request that used the database: seconds inside its statements, first byte sent to last result read.",
        countFamily: "Per request that used the database: statements sent, each one round trip (preparing one is another).",
    ]
    static let valueBuckets: [String: [Double]] = [countFamily: [1, 2, 3, 4, 6, 10, 20]]

    private let acquireWait: Timer
    private let inStatements: Timer
    private let statementCount: Recorder
    private let slowLines = LogRateLimit(linesPerSecond: 10)

    init(factory: any MetricsFactory) {
        acquireWait = Timer(label: Self.acquireFamily, preferredDisplayUnit: .seconds, factory: factory)
        inStatements = Timer(label: Self.statementFamily, preferredDisplayUnit: .seconds, factory: factory)
        statementCount = Recorder(label: Self.countFamily, aggregate: true, factory: factory)
    }

    func respond(to request: Request, chainingTo next: ImmediateResponder) throws -> Response {
        try next(request)
    }

    func respond(to request: Request, chainingTo next: any Responder) async throws -> Response {
        let timing = QueryTiming()
        let start = ContinuousClock.now
        do {
            let response = try await QueryTiming.$current.withValue(timing) { try await next.respond(to: request) }
            record(timing, total: .now - start, request, outcome: String(response.status.code))
            return response
        } catch {
            record(timing, total: .now - start, request, outcome: "error")
            throw error
        }
    }

    private func record(_ timing: QueryTiming, total: Duration, _ request: Request, outcome: String) {
        guard timing.acquisitions > 0 else { return }
        let (acquire, database) = (timing.acquireWait, timing.inDatabase)
        acquireWait.recordNanoseconds(Int64(acquire / .nanoseconds(1)))
        inStatements.recordNanoseconds(Int64(database / .nanoseconds(1)))
        statementCount.record(timing.statements)
        guard total > Self.slowThreshold else { return }
        let (write, suppressed) = slowLines.admit()
        guard write else { return }
        request.logger.notice("slow request", metadata: [
            "method": .string(request.method.rawValue), "path": .string(request.path), "status": .string(outcome),
            "total_ms": .string(Self.milliseconds(total)), "acquire_ms": .string(Self.milliseconds(acquire)),
            "database_ms": .string(Self.milliseconds(database)),
            "other_ms": .string(Self.milliseconds(total - acquire - database)),
            "statements": .string(String(timing.statements)), "suppressedSinceLastLine": .string(String(suppressed)),
        ])
    }

    private static func milliseconds(_ duration: Duration) -> String {
        String(Double(duration / .microseconds(1)) / 1000)
    }
}
