/// A registered endpoint: method, path, the middleware of its group, and its handler.
public struct Route: Sendable, CustomStringConvertible {
    public let method: HTTPMethod
    public let path: [PathComponent]
    public let middleware: [any Middleware]
    public let responder: any Responder
    /// The same handler, callable without suspending, when it was registered as synchronous.
    public let immediate: ImmediateResponder?

    public init(
        method: HTTPMethod, path: [PathComponent], middleware: [any Middleware] = [], responder: any Responder,
        immediate: ImmediateResponder? = nil
    ) {
        self.method = method
        self.path = path
        self.middleware = middleware
        self.responder = responder
        self.immediate = immediate
    }

    public var description: String { "\(method.rawValue) \(path.string)" }
}
