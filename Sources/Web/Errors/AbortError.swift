/// An error that knows the response it should become: status, reason and extra headers.
/// Anything thrown from a handler or middleware that conforms is answered as
/// `{"error": true, "reason": "..."}` with that status (see `ErrorMiddleware`).
public protocol AbortError: Error {
    var status: HTTPStatus { get }
    var reason: String { get }
    var headers: HTTPHeaders { get }
}

extension AbortError {
    public var reason: String { status.reasonPhrase }
    public var headers: HTTPHeaders { [:] }
}

/// The everyday `AbortError`: `throw Abort(.notFound)` or `Abort(.badRequest, reason: "...")`.
public struct Abort: AbortError, Sendable, CustomStringConvertible {
    public var status: HTTPStatus
    public var reason: String
    public var headers: HTTPHeaders

    public init(_ status: HTTPStatus, reason: String? = nil, headers: HTTPHeaders = [:]) {
        self.status = status
        self.reason = reason ?? status.reasonPhrase
        self.headers = headers
    }

    public var description: String { "Abort(\(status.code)): \(reason)" }
}
