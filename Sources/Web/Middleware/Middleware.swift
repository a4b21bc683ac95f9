/// Something that turns a request into a response: a route handler, or a middleware chain
/// folded around one.
public protocol Responder: Sendable {
    func respond(to request: Request) async throws -> Response
}

/// Code that wraps every request of a group: inspect or change the request, call `next`,
/// inspect or change the response, or answer without calling `next` at all.
public protocol Middleware: Sendable {
    func respond(to request: Request, chainingTo next: any Responder) async throws -> Response
}

/// A responder from a closure.
struct ClosureResponder: Responder {
    let closure: @Sendable (Request) async throws -> Response

    func respond(to request: Request) async throws -> Response {
        try await closure(request)
    }
}

/// One middleware in front of the rest of the chain.
struct MiddlewareResponder: Responder {
    let middleware: any Middleware
    let next: any Responder

    func respond(to request: Request) async throws -> Response {
        try await middleware.respond(to: request, chainingTo: next)
    }
}

extension Array where Element == any Middleware {
    /// Folds the middleware around `responder` once, at start-up, so a request walks a fixed
    /// chain instead of rebuilding it (the first middleware is the outermost).
    func makeResponder(chainingTo responder: any Responder) -> any Responder {
        reversed().reduce(responder) { next, middleware in
            MiddlewareResponder(middleware: middleware, next: next)
        }
    }
}
