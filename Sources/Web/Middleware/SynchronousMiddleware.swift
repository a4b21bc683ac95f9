/// A handler that answers without suspending (`app.get("health") { _ in status }`).
public typealias ImmediateResponder = @Sendable (Request) throws -> Response

/// A middleware that never suspends: it maps errors, or reads and adds headers. When a
/// route's whole chain is made of these around a synchronous handler, the server answers the
/// request on the thread that read it, without starting a task for it (a task costs more than
/// a small handler). Such a middleware implements both entry points, usually over one helper.
public protocol SynchronousMiddleware: Middleware {
    func respond(to request: Request, chainingTo next: ImmediateResponder) throws -> Response
}

extension Array where Element == any Middleware {
    /// The chain folded around a synchronous `responder`, or nil when one of the middleware
    /// may suspend (then the route is served by `makeResponder(chainingTo:)` in a task).
    func makeImmediateResponder(chainingTo responder: @escaping ImmediateResponder) -> ImmediateResponder? {
        var next = responder
        for middleware in reversed() {
            guard let middleware = middleware as? any SynchronousMiddleware else { return nil }
            let inner = next
            next = { request in try middleware.respond(to: request, chainingTo: inner) }
        }
        return next
    }
}
