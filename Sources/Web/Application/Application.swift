public import CoreMetrics
import Foundation
public import Logging

/// The entry point of a web app: configure it, register routes and middleware, then `run()`.
///
/// ```swift
/// let app = Application(environment: .development)
/// app.get("health") { _ in Health(status: "ok") }
/// try await app.run()          // until SIGINT/SIGTERM, then a graceful shutdown
/// ```
/// Not `Sendable`: it is configured by one task. `start()` freezes the routes and middleware
/// into an immutable, `Sendable` responder the server threads share.
public final class Application: RoutesBuilder {
    public var environment: Environment
    public var logger: Logger
    /// Host, port and limits of the HTTP server.
    public var http: HTTPServer.Configuration
    /// Middleware in front of every route, outermost first. Starts with `ErrorMiddleware`.
    public var middleware: [any Middleware]
    /// How long in-flight requests may take to finish on shutdown.
    public var shutdownGracePeriod: Duration = .seconds(10)
    /// Where each request is counted and timed by route pattern, method and status
    /// (`RequestMetrics`); nil counts nothing. Passed explicitly, not bootstrapped globally, so
    /// every app (and every test app in one process) has its own.
    public var metrics: (any MetricsFactory)?
    /// The running server's connection and early-response counts, readable from any thread.
    public let statistics = ServerStatistics()

    public private(set) var routes: [Route] = []
    private var shutdownHooks: [@Sendable () async -> Void] = []
    private var startHooks: [@Sendable (_ boundPort: Int) -> Void] = []
    private var server: HTTPServer?

    /// `environment` defaults to production, which hides internals: development is only ever
    /// chosen on purpose.
    public init(environment: Environment = .production, logger: Logger? = nil) {
        self.environment = environment
        self.logger = logger ?? Logger(label: "til")
        http = HTTPServer.Configuration()
        middleware = [ErrorMiddleware(environment: environment)]
    }

    public func add(_ route: Route) {
        routes.append(route)
    }

    /// Runs `hook` after the server stopped (close pools, flush logs...).
    public func onShutdown(_ hook: @escaping @Sendable () async -> Void) {
        shutdownHooks.append(hook)
    }

    /// Runs `hook` with the bound port once the server listens (for settings that name the
    /// port the kernel picked for `port: 0`).
    public func onStart(_ hook: @escaping @Sendable (_ boundPort: Int) -> Void) {
        startHooks.append(hook)
    }

    /// Binds and serves in the background; `boundPort` tells the port (for `port: 0`).
    public func start() throws {
        precondition(server == nil, "application already started")
        let server = HTTPServer(configuration: http, responder: makeResponder(), logger: logger)
        try server.start()
        self.server = server
        statistics.attach(server)
        for hook in startHooks { hook(server.port) }
    }

    public var boundPort: Int { server?.port ?? 0 }

    /// The routes and middleware frozen into the responder the server calls: global
    /// middleware, router, error handling, request id. `package`, so the in-process test
    /// transport answers through exactly what a live server uses.
    package func makeResponder() -> any HTTPResponder {
        ApplicationResponder(
            routes: routes, middleware: middleware, environment: environment, logger: logger,
            metrics: metrics.map(RequestMetrics.init(factory:)))
    }

    /// Graceful shutdown: stop accepting, let in-flight requests finish, then run the hooks.
    public func shutdown() async {
        if let server {
            await server.shutdown(gracePeriod: shutdownGracePeriod)
            self.server = nil
        }
        let hooks = shutdownHooks
        shutdownHooks = []
        for hook in hooks.reversed() { await hook() }
    }

    /// Starts, waits for SIGINT or SIGTERM, then shuts down gracefully.
    public func run() async throws {
        try start()
        logger.notice("listening on \(http.tls == nil ? "http" : "https")://\(http.host):\(boundPort) (\(environment))")
        let signal = await TerminationSignal.wait()
        logger.notice("signal \(signal) received, shutting down")
        await shutdown()
    }

    /// The route table for `til-server routes`: `METHOD  /path  access` per line, where access
    /// is what the route's guard lets through (`public`, `bearer`, `bearer account`).
    public var routeTable: String {
        let methodWidth = routes.map(\.method.rawValue.count).max() ?? 0
        let pathWidth = routes.map(\.path.string.count).max() ?? 0
        return routes.map { route in
            route.method.rawValue.padding(toLength: methodWidth, withPad: " ", startingAt: 0) + "  "
                + route.path.string.padding(toLength: pathWidth, withPad: " ", startingAt: 0) + "  " + route.access.description
        }.joined(separator: "\n")
    }
}
