import CoreMetrics
import Synchronization

/// Counts requests and times them by route pattern, method and status:
/// `http_requests_total{route,method,status}` and `http_request_duration_seconds{route,method}`.
///
/// `route` is the pattern as registered (`/api/acronyms/:acronymID`), never the raw path, and
/// every path no route matches shares `unmatchedRoute`; a method without a name of its own
/// (any token is valid on the wire) counts as `OTHER`: a scanner cannot grow the label set.
/// The handles are made once per label combination and cached, so a request costs one
/// dictionary lookup under a short lock, not a metric lookup with fresh label arrays.
final class RequestMetrics: Sendable {
    typealias Families = RequestMetricFamilies

    /// The `route` label of a request no route matched.
    static let unmatchedRoute = "unmatched"
    private static let namedMethods: Set<HTTPMethod> = [.get, .head, .post, .put, .patch, .delete, .options]
    private static let otherMethod = HTTPMethod(rawValue: "OTHER")

    private struct Key: Hashable {
        let route: String
        let method: HTTPMethod
        let status: Int
    }

    private struct Handles {
        let requests: Counter
        let duration: Timer
    }

    private let factory: any MetricsFactory
    private let cache = Mutex<[Key: Handles]>([:])

    init(factory: any MetricsFactory) {
        self.factory = factory
    }

    func record(route: String, method: HTTPMethod, status: HTTPStatus, duration: Duration) {
        let method = Self.namedMethods.contains(method) ? method : Self.otherMethod
        let key = Key(route: route, method: method, status: status.code)
        let handles = cache.withLock { cache in
            if let handles = cache[key] { return handles }
            let handles = makeHandles(key)
            cache[key] = handles
            return handles
        }
        handles.requests.increment()
        handles.duration.recordNanoseconds(duration.nanoseconds)
    }

    private func makeHandles(_ key: Key) -> Handles {
        Handles(
            requests: Counter(
                label: Families.requests,
                dimensions: [("route", key.route), ("method", key.method.rawValue), ("status", String(key.status))],
                factory: factory),
            duration: Timer(
                label: Families.duration,
                dimensions: [("route", key.route), ("method", key.method.rawValue)],
                preferredDisplayUnit: .seconds, factory: factory))
    }
}

/// The families `RequestMetrics` records, and what each means: for a metrics backend that
/// writes help text (TIL's Prometheus factory turns it into `# HELP` lines).
public enum RequestMetricFamilies {
    public static let requests = "http_requests_total"
    public static let duration = "http_request_duration_seconds"

    public static let help: [String: String] = [
        requests: "HTTP requests answered, by route pattern, method and status.",
        duration: "Seconds from a parsed request to its response, by route pattern and method.",
    ]
}

extension Duration {
    /// Whole nanoseconds (an `Int64` of them spans 292 years: no request lasts that long).
    fileprivate var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
