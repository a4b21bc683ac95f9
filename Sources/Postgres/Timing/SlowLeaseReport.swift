/// Who hears of a slow lease of a pooled connection, and from what length on: the server logs
/// them (issue 22), so that a stalled request says whether it waited for a connection, waited
/// inside PostgreSQL, or held its connection while its loop was busy elsewhere.
///
/// `report` runs on the loop, in the caller's task, when the connection is given back; it
/// should be quick (a rate-limited log line). Leases below the threshold cost one comparison.
public struct SlowLeaseReport: Sendable {
    public let threshold: Duration
    public let report: @Sendable (Lease) -> Void

    public init(threshold: Duration, report: @escaping @Sendable (Lease) -> Void) {
        self.threshold = threshold
        self.report = report
    }
}
