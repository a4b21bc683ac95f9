import Logging

/// The bridge from the HTTP server to the framework: builds the `Request`, finds the route,
/// runs its pre-folded chain, turns escaped errors into responses, tags the response with the
/// request id and writes the access-log line.
///
/// A route whose handler and middleware are all synchronous is answered at once
/// (`HTTPAnswer.now`); any other becomes work the server runs in a task.
struct ApplicationResponder: HTTPResponder {
    /// How a request is served, decided before anything runs.
    private enum Handling {
        case immediate(ImmediateResponder)
        case suspending(any Responder)
    }

    private let router: Router
    private let globalMiddleware: [any Middleware]
    private let notFound: Handling
    private let fallback: ErrorMiddleware
    private let logger: Logger
    private let metrics: RequestMetrics?
    /// Slower requests leave a `notice` line, at most 10 a second (a stall slows many at once).
    static let slowRequestThreshold: Duration = .milliseconds(100)
    private let slowLines = LogRateLimit(linesPerSecond: 10)

    init(routes: [Route], middleware: [any Middleware], environment: Environment, logger: Logger, metrics: RequestMetrics?) {
        var router = Router()
        for route in routes {
            let chain = middleware + route.middleware
            router.register(route.method, route.path, Endpoint(
                responder: chain.makeResponder(chainingTo: route.responder),
                immediate: route.immediate.flatMap(chain.makeImmediateResponder(chainingTo:)),
                route: route.path.string))
        }
        self.router = router
        globalMiddleware = middleware
        notFound = Self.handling(Abort(.notFound), through: middleware)
        fallback = ErrorMiddleware(environment: environment)
        self.logger = logger
        self.metrics = metrics
    }

    func respond(to http: HTTPRequest) async -> HTTPResponse {
        switch answer(http) {
        case .now(let response): response
        case .later(let work): await work()
        }
    }

    func answer(_ http: HTTPRequest) -> HTTPAnswer {
        let start = ContinuousClock.now
        let head = http.head
        let id = head.headers["X-Request-ID"].flatMap { RequestID.isAcceptable($0) ? $0 : nil } ?? RequestID.next()
        var request = Request(
            method: head.method, target: head.target, headers: head.headers, body: http.body, id: id,
            remoteAddress: http.remoteAddress, logger: logger)

        let handling: Handling
        var route = RequestMetrics.unmatchedRoute
        if let rejection = RequestScreening.rejection(of: request) {
            handling = Self.handling(rejection, through: globalMiddleware)
        } else {
            switch router.match(head.method, path: request.path) {
            case .found(let endpoint, let parameters):
                request.parameters = parameters
                route = endpoint.route
                if let rejection = RequestScreening.rejection(of: parameters) {
                    handling = Self.handling(rejection, through: globalMiddleware)
                } else if let immediate = endpoint.immediate {
                    handling = .immediate(immediate)
                } else {
                    handling = .suspending(endpoint.responder)
                }
            case .methodNotAllowed(let allowed):
                let allow = allowed.map(\.rawValue).joined(separator: ", ")
                handling = Self.handling(Abort(.methodNotAllowed, headers: ["Allow": allow]), through: globalMiddleware)
            case .notFound:
                handling = notFound
            }
        }

        switch handling {
        case .immediate(let responder):
            let response: Response
            do {
                response = try responder(request)
            } catch {
                response = fallback.response(for: error, request: request)
            }
            return .now(finish(response, for: request, route: route, start: start))
        case .suspending(let responder):
            let (request, route) = (request, route)
            return .later { [self] in
                let response: Response
                do {
                    response = try await responder.respond(to: request)
                } catch {
                    response = fallback.response(for: error, request: request)
                }
                return finish(response, for: request, route: route, start: start)
            }
        }
    }

    /// Tags the response with the request id, counts it and writes the access-log line.
    private func finish(_ response: Response, for request: Request, route: String, start: ContinuousClock.Instant) -> Response {
        var response = response
        response.headers.add(name: "X-Request-ID", value: request.id)
        let elapsed = ContinuousClock.now - start
        metrics?.record(route: route, method: request.method, status: response.status, duration: elapsed)
        if logger.logLevel <= .info {
            logger.info(
                "\(request.method.rawValue) \(request.path) \(response.status.code) \(Self.milliseconds(elapsed))ms",
                metadata: ["request-id": .string(request.id)])
        }
        if elapsed > Self.slowRequestThreshold { logSlow(request, route: route, status: response.status, elapsed: elapsed) }
        return response
    }

    /// The `slow request` line: what was slow and how slow. Where its time went is in the
    /// lines of the parts that measure themselves (the database's `slow database lease`).
    private func logSlow(_ request: Request, route: String, status: HTTPStatus, elapsed: Duration) {
        let (write, suppressed) = slowLines.admit()
        guard write else { return }
        logger.notice("slow request", metadata: [
            "request-id": .string(request.id), "method": .string(request.method.rawValue), "path": .string(request.path),
            "route": .string(route), "status": .string(String(status.code)), "total_ms": .string(String(Self.milliseconds(elapsed))),
            "suppressedSinceLastLine": .string(String(suppressed)),
        ])
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        let micros = duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
        return Double(micros) / 1000
    }

    /// The global middleware around a responder that throws `error`: refusals made outside
    /// any route still pass the app-wide chain, like a 404.
    private static func handling(_ error: Abort, through middleware: [any Middleware]) -> Handling {
        if let immediate = middleware.makeImmediateResponder(chainingTo: { _ in throw error }) {
            return .immediate(immediate)
        }
        return .suspending(middleware.makeResponder(chainingTo: ClosureResponder { _ in throw error }))
    }
}
