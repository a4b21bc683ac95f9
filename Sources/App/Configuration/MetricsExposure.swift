/// Where `/metrics` is served, from `METRICS` and `METRICS_PORT`: on the API's own port by
/// default; `METRICS=off` serves and counts nothing; `METRICS_PORT=N` moves it to a port of
/// its own (on the same host), for deployments that must not expose it with the API.
public enum MetricsExposure: Sendable, Equatable {
    case off
    case serverPort
    case port(Int)

    static func load(from variables: [String: String]) throws -> MetricsExposure {
        switch variables["METRICS"]?.lowercased() {
        case nil, "on": break
        case "off": return .off
        default: throw ConfigurationError("METRICS must be 'on' or 'off'.")
        }
        guard let text = variables["METRICS_PORT"] else { return .serverPort }
        guard let port = Int(text), (1...65535).contains(port) else {
            throw ConfigurationError("METRICS_PORT must be a port number from 1 to 65535.")
        }
        return .port(port)
    }
}
