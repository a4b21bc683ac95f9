/// A registered endpoint: method, path, the middleware of its group, and its handler.
public struct Route: Sendable, CustomStringConvertible {
    public let method: HTTPMethod
    public let path: [PathComponent]
    public let middleware: [any Middleware]
    public let responder: any Responder

    public init(method: HTTPMethod, path: [PathComponent], middleware: [any Middleware] = [], responder: any Responder) {
        self.method = method
        self.path = path
        self.middleware = middleware
        self.responder = responder
    }

    public var description: String { "\(method.rawValue) \(path.string)" }
}
