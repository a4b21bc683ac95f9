/// Where routes are registered: the application, or a group of it. One requirement; the
/// familiar `get`/`post`/`grouped` are extensions.
public protocol RoutesBuilder {
    func add(_ route: Route)
}

/// A set of routes registered together, typically a controller.
public protocol RouteCollection {
    func boot(routes: any RoutesBuilder) throws
}

extension RoutesBuilder {
    public func register(collection: some RouteCollection) throws {
        try collection.boot(routes: self)
    }

    /// Routes under a common path prefix: `app.grouped("api", "users")`.
    public func grouped(_ path: PathComponent...) -> any RoutesBuilder {
        RoutesGroup(parent: self, path: path, middleware: [])
    }

    /// Routes behind middleware: `api.grouped(TokenAuthenticator(), ScopeGuard(scope: .account))`.
    public func grouped(_ middleware: any Middleware...) -> any RoutesBuilder {
        RoutesGroup(parent: self, path: [], middleware: middleware)
    }

    public func grouped(_ middleware: [any Middleware]) -> any RoutesBuilder {
        RoutesGroup(parent: self, path: [], middleware: middleware)
    }
}

/// A prefix and/or middleware in front of another builder.
struct RoutesGroup: RoutesBuilder {
    let parent: any RoutesBuilder
    let path: [PathComponent]
    let middleware: [any Middleware]

    func add(_ route: Route) {
        parent.add(Route(
            method: route.method, path: path + route.path,
            middleware: middleware + route.middleware, responder: route.responder, immediate: route.immediate))
    }
}
