import Logging

/// The bridge from the HTTP server to the framework: builds the `Request`, finds the route,
/// runs its pre-folded chain, turns escaped errors into responses, tags the response with the
/// request id and writes the access-log line.
struct ApplicationResponder: HTTPResponder {
    let router: Router
    let globalMiddleware: [any Middleware]
    let notFound: any Responder
    let fallback: ErrorMiddleware
    let logger: Logger
    let metrics: RequestMetrics?

    init(routes: [Route], middleware: [any Middleware], environment: Environment, logger: Logger, metrics: RequestMetrics?) {
        var router = Router()
        for route in routes {
            router.register(route.method, route.path, (middleware + route.middleware).makeResponder(chainingTo: route.responder))
        }
        self.router = router
        globalMiddleware = middleware
        notFound = middleware.makeResponder(chainingTo: ClosureResponder { _ in throw Abort(.notFound) })
        fallback = ErrorMiddleware(environment: environment)
        self.logger = logger
        self.metrics = metrics
    }

    func respond(to http: HTTPRequest) async -> HTTPResponse {
        let start = ContinuousClock.now
        let head = http.head
        let id = head.headers["X-Request-ID"].flatMap { RequestID.isAcceptable($0) ? $0 : nil } ?? RequestID.next()
        var request = Request(
            method: head.method, target: head.target, headers: head.headers, body: http.body, id: id,
            remoteAddress: http.remoteAddress, logger: logger)

        let responder: any Responder
        var route = RequestMetrics.unmatchedRoute
        if let rejection = RequestScreening.rejection(of: request) {
            responder = answering(rejection)
        } else {
            switch router.match(head.method, path: request.path) {
            case .found(let routeResponder, let parameters, let pattern):
                request.parameters = parameters
                route = pattern
                responder = RequestScreening.rejection(of: parameters).map(answering) ?? routeResponder
            case .methodNotAllowed(let allowed):
                let allow = allowed.map(\.rawValue).joined(separator: ", ")
                responder = answering(Abort(.methodNotAllowed, headers: ["Allow": allow]))
            case .notFound:
                responder = notFound
            }
        }

        var response: Response
        do {
            response = try await responder.respond(to: request)
        } catch {
            response = fallback.response(for: error, request: request)
        }
        response.headers.add(name: "X-Request-ID", value: id)
        if let metrics {
            metrics.record(route: route, method: head.method, status: response.status, duration: ContinuousClock.now - start)
        }
        if logger.logLevel <= .info {
            let elapsed = ContinuousClock.now - start
            let micros = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
            logger.info(
                "\(head.method.rawValue) \(request.path) \(response.status.code) \(Double(micros) / 1000)ms",
                metadata: ["request-id": .string(id)])
        }
        return response
    }

    /// The global middleware around a responder that throws `error`: refusals made outside
    /// any route still pass the app-wide chain, like a 404.
    private func answering(_ error: Abort) -> any Responder {
        globalMiddleware.makeResponder(chainingTo: ClosureResponder { _ in throw error })
    }
}
