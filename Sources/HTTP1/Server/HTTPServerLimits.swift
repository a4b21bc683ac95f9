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
    /// Longest extension list (`;name=value...`) after one chunk size; longer → 400.
    public var maxChunkExtensionBytes = 256
    /// Time allowed to receive one request's head and body once its first byte arrived → 408.
    public var requestReadTimeout: Duration = .seconds(30)
    /// Time a client has, from its connect, to finish the TLS handshake (HTTPS only); then the
    /// connection is closed without an answer (there is no session to answer in).
    public var tlsHandshakeTimeout: Duration = .seconds(10)
    /// Time an idle keep-alive connection is kept before it is closed quietly.
    public var idleTimeout: Duration = .seconds(60)
    /// Time output may wait unsent in the server: once a response is pending, the client must
    /// take all of it within this time, in any phase (also while the next request is read),
    /// or the connection is closed. The clock restarts only when nothing is pending, so a
    /// slow reader taking a byte now and then cannot hold a response for ever; 30 s leaves
    /// this API's largest answer (a 1,000-row page, ~150 KB) a rate floor of ~5 KB/s.
    public var writeStallTimeout: Duration = .seconds(30)
    /// Most connections open at once; further ones are refused with 503 and closed.
    public var maxConnections = 10_000
    /// Log lines a second for the answers the server gives before routing (400, 408, 413,
    /// 414, 431, 503, 505); the rest are counted and summed up in one line.
    public var maxEarlyResponseLogLinesPerSecond = 10

    // Backpressure. Responses are built whole before they are written, so what a server holds
    // for clients that read slowly is bounded by not building more while theirs wait.

    /// Unsent response bytes above which a connection parses no further pipelined request...
    public var outputHighWaterBytes = 256 * 1024
    /// ...until they are back down to this many.
    public var outputLowWaterBytes = 64 * 1024
    /// Unsent response bytes over all connections (64 MiB) from which a connection that still
    /// has unsent output takes no new request until all of it is sent: clients that keep up
    /// are served as usual, slow ones get one response at a time. Beyond the budget the server
    /// then holds at most one response per slow connection, freed once it is sent or once the
    /// write-stall timeout closes a connection whose client stopped reading.
    public var maxPendingOutputBytes = 64 * 1024 * 1024

    public init() {}

    /// Raw bytes a chunked body may take on the wire, framing and trailers included; more → 413.
    /// The decoded body (`maxBodyBytes`) plus its trailers (`maxHeaderBytes`) plus a margin for
    /// chunk-size lines of 1/8 of the body limit plus 1 KiB: chunks of ~64 bytes and up fit, while
    /// padded lines around tiny chunks cannot make one request buffer many times its limit.
    public var maxChunkedBodyRawBytes: Int { maxBodyBytes + maxHeaderBytes + maxBodyBytes / 8 + 1024 }
}
