import Sockets
import Web

/// Where `/metrics` is served, from `METRICS`, `METRICS_PORT` and `METRICS_HOST`.
///
/// - `METRICS_PORT=N`: on a listener of its own at `METRICS_HOST:N` (loopback by default), in
///   every environment, and never on the API's port. The listener shares its port
///   (`SO_REUSEPORT`), as the API's does, so several processes on one host and the two
///   processes of a zero-downtime restart all start.
/// - Without it: on the API's own port in development and testing; not at all in production,
///   where the API's port is public (nothing is counted then, and a notice says so).
/// - `METRICS=off`: nothing served or counted.
public enum MetricsExposure: Sendable, Equatable {
    case off
    /// Production without `METRICS_PORT`: like `off`, with a notice at start.
    case productionWithoutPort
    case serverPort
    case port(Int, host: String)

    /// Where a metrics listener binds unless `METRICS_HOST` says otherwise.
    static let defaultHost = "127.0.0.1"

    init(reader: ConfigReader, environment: Environment) throws(ConfigurationError) {
        // Checked even when unused: a bad value never waits for the day it matters.
        let port = try reader.number(.metricsPort)
        let host = try reader.value(.metricsHost) { text in text == "localhost" || IPAddress(text) != nil ? text : nil }
        if try reader.isOn(.metrics) == false {
            self = .off
        } else if let port {
            self = .port(port, host: host ?? Self.defaultHost)
        } else if environment == .production {
            self = .productionWithoutPort
        } else {
            self = .serverPort
        }
    }

    /// True when `/metrics` is a route of the API's own port.
    public var isServedOnServerPort: Bool { self == .serverPort }

    /// False when nothing is counted or served.
    var counts: Bool {
        switch self {
        case .off, .productionWithoutPort: false
        case .serverPort, .port: true
        }
    }
}
