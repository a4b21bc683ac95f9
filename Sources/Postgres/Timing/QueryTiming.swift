import Synchronization

/// Where one request's database time went: waiting for a pooled connection, and inside its
/// statements (from the statement's first byte written to its last result read, so it also
/// holds PostgreSQL's own queueing). The rest of the request's time was spent on its loop.
///
/// Bound to a request by `QueryTiming.$current.withValue(_:)`; the pool and the connections
/// add to the bound one, if any, and cost nothing more when none is bound. A request's
/// statements all run on its loop one after another, but a timing is a reference that may be
/// read elsewhere (a log line), so its sums are atomics: relaxed, uncontended, a few
/// nanoseconds each.
public final class QueryTiming: Sendable {
    @TaskLocal public static var current: QueryTiming?

    private let acquireNanoseconds = Atomic<Int64>(0)
    private let statementNanoseconds = Atomic<Int64>(0)
    private let statementCount = Atomic<Int>(0)
    private let acquireCount = Atomic<Int>(0)

    public init() {}

    /// Time spent waiting for a connection: the queue, or opening a new one.
    public var acquireWait: Duration { .nanoseconds(acquireNanoseconds.load(ordering: .relaxed)) }
    /// Time spent inside statements.
    public var inDatabase: Duration { .nanoseconds(statementNanoseconds.load(ordering: .relaxed)) }
    /// Statements sent, each one round trip (a pipelined BEGIN rides along and is not counted).
    public var statements: Int { statementCount.load(ordering: .relaxed) }
    /// Connections taken from the pool.
    public var acquisitions: Int { acquireCount.load(ordering: .relaxed) }

    func addAcquire(since start: ContinuousClock.Instant) {
        acquireNanoseconds.add((ContinuousClock.now - start).wholeNanoseconds, ordering: .relaxed)
        acquireCount.add(1, ordering: .relaxed)
    }

    func addStatement(since start: ContinuousClock.Instant) {
        statementNanoseconds.add((ContinuousClock.now - start).wholeNanoseconds, ordering: .relaxed)
        statementCount.add(1, ordering: .relaxed)
    }
}

extension Duration {
    /// Whole nanoseconds (an `Int64` of them spans 292 years).
    var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
