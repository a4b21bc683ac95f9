import Logging
import Synchronization

/// What every connection of a server shares across loops: the responder, the limits,
/// and a few atomics (open connections, draining, unsent output). Immutable apart from the atomics.
final class ServerState: Sendable {
    let responder: any HTTPResponder
    let limits: HTTPServerLimits
    let serverName: String
    let logger: Logger
    let earlyResponses: EarlyResponseRecorder
    let openConnections = Atomic<Int>(0)
    let draining = Atomic<Bool>(false)
    /// Response bytes written by responders but not yet taken by the kernel, over all connections.
    let pendingOutputBytes = Atomic<Int>(0)
    /// TLS handshakes that failed on a protocol error or did not finish in time.
    let failedTLSHandshakes = Atomic<Int>(0)

    init(responder: any HTTPResponder, limits: HTTPServerLimits, serverName: String, logger: Logger) {
        self.responder = responder
        self.limits = limits
        self.serverName = serverName
        self.logger = logger
        earlyResponses = EarlyResponseRecorder(logger: logger, linesPerSecond: limits.maxEarlyResponseLogLinesPerSecond)
    }

    var isDraining: Bool { draining.load(ordering: .relaxed) }

    /// The server-wide backpressure threshold is reached (see `HTTPServerLimits.maxPendingOutputBytes`).
    var isOverOutputBudget: Bool { pendingOutputBytes.load(ordering: .relaxed) >= limits.maxPendingOutputBytes }
}
