import Web

/// `GET /metrics` on the API's own port (the default; `METRICS_PORT` serves it apart with
/// `MetricsPortResponder` instead).
struct MetricsController: RouteCollection {
    let metrics: TILMetrics
    let sources: TILMetrics.Sources

    func boot(routes: any RoutesBuilder) throws {
        routes.get("metrics") { _ in
            metrics.scrapeResponse(sources)
        }
    }
}
