import CoreMetrics
import Crypt
import Postgres
import Prometheus
import Synchronization
import Threads
import Web

/// TIL's metrics: one Prometheus registry per app (passed explicitly, never bootstrapped
/// process-wide, so the many apps of a test process each count their own), the factory the
/// request and login counters are made with, and the scrape.
///
/// Request counts, latencies and logins are counted as they happen. The rest is read at
/// scrape time from counters the server, the pool and the bcrypt pool already keep (atomics
/// or a short lock): a scrape costs no database round trip and nothing on the request path.
final class TILMetrics: Sendable {
    /// What a scrape reads besides the registry.
    struct Sources: Sendable {
        let server: ServerStatistics
        let db: PostgresClient
        let hasher: BcryptHasher
    }

    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    private let registry = PrometheusCollectorRegistry()
    let factory: any MetricsFactory

    private let openConnections: Prometheus.Gauge
    private let poolInUse: Prometheus.Gauge
    private let poolWaiting: Prometheus.Gauge
    private let poolAcquireTimeouts: Prometheus.Counter
    private let bcryptQueued: Prometheus.Gauge
    private let bcryptRunning: Prometheus.Gauge
    private let earlyResponses: [(status: Int, counter: Prometheus.Counter)]
    private let failedTLSHandshakes: Prometheus.Counter
    /// The cumulative counts already added to the counters above: a scrape adds the growth.
    private let published = Mutex(Published())

    private struct Published {
        var acquireTimeouts = 0
        var early: [Int: Int] = [:]
        var failedTLSHandshakes = 0
    }

    init() {
        factory = DescribedMetricsFactory(
            registry: registry, help: RequestMetricFamilies.help.merging(LoginMetrics.help) { $1 },
            durationBuckets: [
                .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
                .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
                .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
            ])
        openConnections = registry.makeGauge(descriptor: .init(
            metricName: "http_open", unitName: "connections", helpText: "HTTP connections open now."))
        poolInUse = registry.makeGauge(descriptor: .init(
            metricName: "til_db_pool_connections", unitName: "in_use", helpText: "Database connections handed out to requests now."))
        poolWaiting = registry.makeGauge(descriptor: .init(
            metricName: "til_db_pool", unitName: "waiting", helpText: "Requests queued for a database connection now."))
        poolAcquireTimeouts = registry.makeCounter(descriptor: .init(
            metricName: "til_db_pool_acquire_timeouts", unitName: "total",
            helpText: "Requests that found no free database connection in time."))
        bcryptQueued = registry.makeGauge(descriptor: .init(
            metricName: "til_bcrypt_queue", unitName: "length", helpText: "Password checks waiting for a bcrypt thread."))
        bcryptRunning = registry.makeGauge(descriptor: .init(
            metricName: "til_bcrypt", unitName: "running", helpText: "Password checks on a bcrypt thread now."))
        let early = MetricNameDescriptor(
            metricName: "http_early_responses", unitName: "total",
            helpText: "Answers the server gave before routing (parse errors, read timeouts, connection limit).")
        failedTLSHandshakes = registry.makeCounter(descriptor: .init(
            metricName: "tls_handshake_failures", unitName: "total",
            helpText: "TLS handshakes that failed on a protocol error or did not finish in time."))
        let registry = registry
        earlyResponses = [400, 408, 413, 414, 431, 503, 505].map { status in
            (status, registry.makeCounter(descriptor: early, labels: [("status", String(status))]))
        }
    }

    /// The exposition text: the gauges and server counters brought up to date, then every
    /// metric in the registry.
    private func scrape(_ sources: Sources) -> [UInt8] {
        openConnections.set(Int64(sources.server.openConnections))
        let pool = sources.db.poolStatistics
        poolInUse.set(Int64(pool.inUse))
        poolWaiting.set(Int64(pool.waiting))
        let load = sources.hasher.load
        bcryptQueued.set(Int64(load.queued))
        bcryptRunning.set(Int64(load.running))
        let early = sources.server.earlyResponses
        let failedHandshakes = sources.server.failedTLSHandshakes
        published.withLock { published in
            advance(poolAcquireTimeouts, from: &published.acquireTimeouts, to: pool.acquireTimeouts)
            advance(failedTLSHandshakes, from: &published.failedTLSHandshakes, to: failedHandshakes)
            for (status, counter) in earlyResponses {
                advance(counter, from: &published.early[status, default: 0], to: early.count(status: status))
            }
        }
        return registry.emitToBuffer() + Array(LeaseHistograms.text(sources.db.leaseStatistics).utf8)
    }

    /// A scrape as the 200 both `/metrics` routes answer (the API's port, `METRICS_PORT`).
    func scrapeResponse(_ sources: Sources) -> Response {
        Response(status: .ok, headers: ["Content-Type": Self.contentType], body: scrape(sources))
    }

    private func advance(_ counter: Prometheus.Counter, from published: inout Int, to current: Int) {
        guard current > published else { return }
        counter.increment(by: Int64(current - published))
        published = current
    }
}

extension EarlyResponseCounts {
    /// The count of one early status.
    fileprivate func count(status: Int) -> Int {
        switch status {
        case 400: badRequest
        case 408: requestTimeout
        case 413: contentTooLarge
        case 414: uriTooLong
        case 431: headerFieldsTooLarge
        case 503: connectionLimit
        case 505: versionNotSupported
        default: 0
        }
    }
}
