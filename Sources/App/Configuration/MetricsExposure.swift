/// Where `/metrics` is served, from `METRICS` and `METRICS_PORT`: on the API's own port by
/// default; `METRICS=off` serves and counts nothing; `METRICS_PORT=N` moves it to a port of
/// its own (on the same host), for deployments that must not expose it with the API.
public enum MetricsExposure: Sendable, Equatable {
    case off
    case serverPort
    case port(Int)

    init(reader: ConfigReader) throws(ConfigurationError) {
        let port = try reader.number(.metricsPort)  // checked even when off: a bad value never waits
        if try reader.isOn(.metrics) == false {
            self = .off
        } else if let port {
            self = .port(port)
        } else {
            self = .serverPort
        }
    }
}
