/// A middleware that only turns one kind of error into another (a database outage into a 503,
/// say): it writes `translate` once and gets both the suspending and the synchronous entry
/// point from it, so it never costs a synchronous route its task-free path.
public protocol ErrorTranslatingMiddleware: SynchronousMiddleware {
    /// What to throw instead of `error`: the client's view of it, or `error` itself.
    func translate(_ error: any Error, for request: Request) -> any Error
}

extension ErrorTranslatingMiddleware {
    public func respond(to request: Request, chainingTo next: any Responder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch {
            throw translate(error, for: request)
        }
    }

    public func respond(to request: Request, chainingTo next: ImmediateResponder) throws -> Response {
        do {
            return try next(request)
        } catch {
            throw translate(error, for: request)
        }
    }
}
