/// The named prepared statements of one connection, and when their plans are due to be made
/// afresh.
///
/// PostgreSQL plans a prepared statement once for good (its generic plan) after five
/// executions, against the table's size at that moment, and keeps the plan until the table is
/// analysed again, which autovacuum does up to a minute (`autovacuum_naptime`) after the table
/// changed a lot. A lookup by primary key prepared while its table held a few rows is planned
/// as a sequential scan, and stays one while the table grows to 100,000 rows: each lookup
/// then reads every page (2 ms instead of 20 µs), and a server doing 30,000 of them a second
/// saturates PostgreSQL (Benchmarks/RESULTS.md, issue 22). So every `replanInterval`
/// statements a connection sends `DISCARD PLANS` ahead of the next one, in the same round
/// trip: each statement keeps its parse tree and gets one new plan, made against the tables as
/// they are. A stale plan can thus cost at most `replanInterval` executions per connection;
/// the new plans cost one planning per statement in use per interval (well under 1 % of
/// statements).
struct StatementCache {
    static let replanInterval = 100

    private var names: [String: String] = [:]
    private var sentSinceReplan = 0

    /// The name `sql` is prepared under on this connection, if it is.
    func name(for sql: String) -> String? { names[sql] }

    /// The name the next statement to prepare gets.
    var nextName: String { "s\(names.count + 1)" }

    /// Records that `sql` is now prepared under `name`.
    mutating func add(_ sql: String, as name: String) {
        names[sql] = name
    }

    /// Counts one statement sent; true when the plans are due to be discarded before it.
    mutating func countStatement() -> Bool {
        sentSinceReplan += 1
        guard sentSinceReplan > Self.replanInterval else { return false }
        sentSinceReplan = 1
        return true
    }
}
