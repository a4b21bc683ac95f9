import Logging
import Synchronization

/// What every connection of a server shares across loops: the responder, the limits,
/// and two atomics (open connections, draining). Immutable apart from the atomics.
final class ServerState: Sendable {
    let responder: any HTTPResponder
    let limits: HTTPServerLimits
    let serverName: String
    let logger: Logger
    let openConnections = Atomic<Int>(0)
    let draining = Atomic<Bool>(false)

    init(responder: any HTTPResponder, limits: HTTPServerLimits, serverName: String, logger: Logger) {
        self.responder = responder
        self.limits = limits
        self.serverName = serverName
        self.logger = logger
    }

    var isDraining: Bool { draining.load(ordering: .relaxed) }
}
