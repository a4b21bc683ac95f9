import Synchronization

/// What one lease of a pooled connection (acquire to release: for a request, usually its whole
/// use of the database) cost: the wait for the connection, and the statements sent on it.
public struct Lease: Sendable, Equatable {
    /// From asking the pool to holding the connection: the queue, or opening a new one.
    public var acquireWait: Duration = .zero
    /// Inside statements, from the first byte written to the last result read (so it holds
    /// PostgreSQL's own queueing too).
    public var inStatements: Duration = .zero
    /// Statements sent, each one round trip (a pipelined BEGIN or DISCARD rides along uncounted).
    public var statements = 0
    /// From getting the connection to giving it back: its statements, and the caller's own
    /// work on its loop in between (set at release).
    public var held: Duration = .zero
    /// When the connection was handed out.
    var handedOut = ContinuousClock.now
}

/// Leases counted into fixed buckets, for three histograms in `/metrics` (issue 22): how long
/// callers waited for a connection, how long their statements took, and how many they sent.
public struct LeaseStatistics: Sendable, Equatable {
    public static let secondsBounds: [Double] = [
        0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
    ]
    public static let statementBounds: [Double] = [1, 2, 3, 4, 6, 10, 20]

    public private(set) var acquireWait = BucketCounts(upperBounds: secondsBounds)
    public private(set) var inStatements = BucketCounts(upperBounds: secondsBounds)
    public private(set) var statements = BucketCounts(upperBounds: statementBounds)

    public init() {}

    mutating func record(_ lease: Lease) {
        acquireWait.record(lease.acquireWait.seconds)
        inStatements.record(lease.inStatements.seconds)
        statements.record(Double(lease.statements))
    }

    mutating func add(_ other: LeaseStatistics) {
        acquireWait.add(other.acquireWait)
        inStatements.add(other.inStatements)
        statements.add(other.statements)
    }
}

/// Counts of values by bucket: what a Prometheus histogram shows, without its lock.
public struct BucketCounts: Sendable, Equatable {
    /// Each bucket's inclusive upper bound, ascending; one more bucket holds everything above.
    public let upperBounds: [Double]
    /// Per bucket (not cumulative): `upperBounds.count + 1` of them.
    public private(set) var counts: [Int]
    public private(set) var sum: Double = 0

    init(upperBounds: [Double]) {
        self.upperBounds = upperBounds
        counts = Array(repeating: 0, count: upperBounds.count + 1)
    }

    public var total: Int { counts.reduce(0, +) }

    mutating func record(_ value: Double) {
        var index = 0
        while index < upperBounds.count, value > upperBounds[index] { index += 1 }
        counts[index] += 1
        sum += value
    }

    mutating func add(_ other: BucketCounts) {
        for index in counts.indices { counts[index] += other.counts[index] }
        sum += other.sum
    }
}

/// One loop's lease statistics: recorded by that loop at every release, summed by a scrape.
/// The lock is only ever contended by a scrape, never by another loop (a shared histogram
/// per family cost every request a lock that both cores fought over).
final class LeaseRecorder: Sendable {
    private let statistics = Mutex(LeaseStatistics())

    func record(_ lease: Lease) {
        statistics.withLock { $0.record(lease) }
    }

    var snapshot: LeaseStatistics { statistics.withLock { $0 } }
}

extension Duration {
    /// Seconds as a `Double` (what a Prometheus histogram counts in).
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
