public import Logging

/// One HTTP request as handlers see it: a `Sendable` value. Middleware passes a changed copy
/// down the chain (`var req = req; req.auth.login(user)`), so there are no locks inside.
public struct Request: Sendable {
    public let method: HTTPMethod
    /// The path without its query, as sent (percent-encoded).
    public let path: String
    /// The raw query string after `?`, if any.
    public let queryString: Substring?
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// Values of the route's `:name` components.
    public var parameters: Parameters
    /// Who the request is authenticated as (set by authenticator middleware).
    public var auth = AuthStorage()
    /// `X-Request-ID` as received, or a generated one; echoed in the response.
    public let id: String
    /// The socket peer's IP address as text (`127.0.0.1`, `::1`), nil when unknown (an
    /// in-process test). Behind a proxy this is the proxy.
    public var remoteAddress: String?
    /// The client's address as throttling counts it and logs name it: the socket peer
    /// ("unknown" without one), or the address a trusted proxy forwarded, once
    /// `ClientAddressMiddleware` has resolved it. Read this, never `X-Forwarded-For`.
    public var clientAddress: String
    private let baseLogger: Logger

    public init(
        method: HTTPMethod, target: String, headers: HTTPHeaders = [:], body: [UInt8] = [],
        id: String = RequestID.next(), remoteAddress: String? = nil, logger: Logger
    ) {
        self.method = method
        // Searched as bytes: a `Character` search would walk grapheme clusters.
        if let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) {
            path = String(target[..<mark])
            queryString = target[target.utf8.index(after: mark)...]
        } else {
            path = target
            queryString = nil
        }
        self.headers = headers
        self.body = body
        self.parameters = Parameters()
        self.id = id
        self.remoteAddress = remoteAddress
        clientAddress = remoteAddress ?? "unknown"
        baseLogger = logger
    }

    /// The application's logger, tagged with this request's id.
    public var logger: Logger {
        var logger = baseLogger
        logger[metadataKey: "request-id"] = .string(id)
        return logger
    }

    /// Query parameters (`?term=a+b` → `query["term"] == "a b"`).
    public var query: QueryParameters { QueryParameters(queryString) }

    /// The body, decoded by its content type.
    public var content: ContentContainer { ContentContainer(headers: headers, body: body) }
}
