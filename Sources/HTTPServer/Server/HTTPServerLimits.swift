/// Every limit the server enforces, each answered with its own status (see issue #2).
public struct HTTPServerLimits: Sendable {
    /// Longest request line (method, target, version); longer → 414.
    public var maxRequestLineBytes = 8 * 1024
    /// Largest header section, request line excluded; larger → 431.
    public var maxHeaderBytes = 16 * 1024
    /// Most header fields; more → 431.
    public var maxHeaderCount = 100
    /// Largest request body, whatever its framing; larger → 413.
    public var maxBodyBytes = 1024 * 1024
    /// Time allowed to receive one request's head and body once its first byte arrived → 408.
    public var requestReadTimeout: Duration = .seconds(30)
    /// Time an idle keep-alive connection is kept before it is closed quietly.
    public var idleTimeout: Duration = .seconds(60)
    /// Most connections open at once; further ones are refused with 503 and closed.
    public var maxConnections = 10_000

    public init() {}
}
