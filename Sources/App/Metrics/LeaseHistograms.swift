import Postgres

/// The database's share of request time in `/metrics` (issue 22), lease by lease of a pooled
/// connection (for a request, usually its whole use of the database). The pools count leases
/// per loop (`LeaseStatistics`); a scrape sums them and writes the three histograms here,
/// since the Prometheus registry's own histograms take a lock shared by every loop on each
/// record.
enum LeaseHistograms {
    static let acquireFamily = "til_db_acquire_wait_seconds"
    static let statementFamily = "til_db_statement_seconds"
    static let countFamily = "til_db_statements_per_lease"

    static let help = [
        acquireFamily: "Per lease of a pooled database connection: seconds spent waiting for it.",
        statementFamily: "Per lease of a pooled database connection: seconds inside its statements, first byte sent to last result read.",
        countFamily: "Per lease of a pooled database connection: statements sent, each one round trip (preparing one is another).",
    ]

    /// The exposition text of the three families.
    static func text(_ statistics: LeaseStatistics) -> String {
        [
            histogram(acquireFamily, statistics.acquireWait),
            histogram(statementFamily, statistics.inStatements),
            histogram(countFamily, statistics.statements),
        ].joined()
    }

    private static func histogram(_ family: String, _ buckets: BucketCounts) -> String {
        var text = "# HELP \(family) \(help[family] ?? "")\n# TYPE \(family) histogram\n"
        var cumulative = 0
        for (index, count) in buckets.counts.enumerated() {
            cumulative += count
            let bound = index < buckets.upperBounds.count ? "\(buckets.upperBounds[index])" : "+Inf"
            text += "\(family)_bucket{le=\"\(bound)\"} \(cumulative)\n"
        }
        text += "\(family)_sum \(buckets.sum)\n\(family)_count \(cumulative)\n"
        return text
    }
}
