import Synchronization

/// A running application's server-side counts for a metrics scrape: open connections and the
/// answers given before routing. Made with the `Application` (before its server exists) and
/// attached when it starts, so a route registered at configuration time can read it later.
public final class ServerStatistics: Sendable {
    private let server = Mutex<HTTPServer?>(nil)

    init() {}

    func attach(_ server: HTTPServer) {
        self.server.withLock { $0 = server }
    }

    /// Connections open now; 0 before the server started.
    public var openConnections: Int { server.withLock { $0?.openConnections ?? 0 } }

    /// Answers given before any responder saw a request (400/408/413/414/431/505/503).
    public var earlyResponses: EarlyResponseCounts { server.withLock { $0?.earlyResponses ?? EarlyResponseCounts() } }

    /// TLS handshakes that failed or timed out (0 without TLS).
    public var failedTLSHandshakes: Int { server.withLock { $0?.failedTLSHandshakes ?? 0 } }
}
