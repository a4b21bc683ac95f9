import Web

/// The whole of the separate metrics server (`METRICS_PORT`): `GET /metrics` and nothing
/// else, answered straight from the HTTP layer, without the API's routes or middleware.
struct MetricsPortResponder: HTTPResponder {
    let metrics: TILMetrics
    let sources: TILMetrics.Sources

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        let path = request.head.target.prefix { $0 != "?" }
        guard path == "/metrics" else {
            return .jsonError(.notFound, reason: "Only /metrics is served on this port.")
        }
        guard request.head.method == .get || request.head.method == .head else {
            return .jsonError(.methodNotAllowed, reason: "Use GET or HEAD.", headers: ["Allow": "GET, HEAD"])
        }
        return metrics.scrapeResponse(sources)
    }
}
