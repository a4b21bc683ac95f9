/// Answers one request. Implementations never throw: turning errors into responses is the
/// framework's job (see `Web.ErrorMiddleware`).
public protocol HTTPResponder: Sendable {
    func respond(to request: HTTPRequest) async -> HTTPResponse

    /// The answer now, when it needs no suspension, else the work that produces it. The
    /// server calls this, not `respond(to:)`: a request answered `.now` costs no task.
    /// Defaults to `.later { await respond(to: request) }`.
    func answer(_ request: HTTPRequest) -> HTTPAnswer
}

/// What a responder makes of a request.
public enum HTTPAnswer: Sendable {
    /// Computed without suspending.
    case now(HTTPResponse)
    /// To run in a task on the connection's event loop.
    case later(@Sendable () async -> HTTPResponse)
}

extension HTTPResponder {
    public func answer(_ request: HTTPRequest) -> HTTPAnswer {
        .later { await respond(to: request) }
    }
}
