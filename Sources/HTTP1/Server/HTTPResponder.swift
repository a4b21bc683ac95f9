/// Answers one request. Implementations never throw: turning errors into responses is the
/// framework's job (see `Web.ErrorMiddleware`).
public protocol HTTPResponder: Sendable {
    func respond(to request: HTTPRequest) async -> HTTPResponse
}
