/// How often the server answered by itself, before any responder saw a request: answers the
/// application's access log and its metrics cannot see. A snapshot from `HTTPServer.earlyResponses`.
public struct EarlyResponseCounts: Sendable, Equatable {
    /// 400: a request the parser refused.
    public var badRequest = 0
    /// 408: a request not received within `requestReadTimeout`.
    public var requestTimeout = 0
    /// 413: a body over `maxBodyBytes` (or its chunked framing over `maxChunkedBodyRawBytes`).
    public var contentTooLarge = 0
    /// 414: a request line over `maxRequestLineBytes`.
    public var uriTooLong = 0
    /// 431: header fields over `maxHeaderBytes` or `maxHeaderCount`.
    public var headerFieldsTooLarge = 0
    /// 505: an HTTP version other than 1.0 and 1.1.
    public var versionNotSupported = 0
    /// 503: a connection refused over `maxConnections` (or out of descriptors).
    public var connectionLimit = 0

    public init() {}

    /// All of them.
    public var total: Int {
        badRequest + requestTimeout + contentTooLarge + uriTooLong + headerFieldsTooLarge + versionNotSupported + connectionLimit
    }

    /// Counts one answer with `status`.
    mutating func count(_ status: HTTPStatus) {
        switch status.code {
        case 400: badRequest += 1
        case 408: requestTimeout += 1
        case 413: contentTooLarge += 1
        case 414: uriTooLong += 1
        case 431: headerFieldsTooLarge += 1
        case 505: versionNotSupported += 1
        case 503: connectionLimit += 1
        default: break  // the server answers nothing else by itself
        }
    }
}
