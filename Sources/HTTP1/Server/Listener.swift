import Glibc
import Logging
import Sockets
import Synchronization

/// The listening socket of one event loop. Accepts connections while the server is under
/// its connection limit; over it, answers 503 at once and closes.
final class Listener: EventHandler {
    let fd: Int32
    let context: LoopContext
    private var lastAcceptWarning = ContinuousClock.now - .seconds(2)
    /// Held in reserve for `shedOneConnection`.
    private var spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)

    init(fd: Int32, context: LoopContext) {
        self.fd = fd
        self.context = context
    }

    func handle(_ readiness: Readiness) {
        // Bounded, so one loop cannot starve its connections during a connection storm.
        for _ in 0..<64 {
            let accepted: Int32?
            do {
                accepted = try Socket.accept(fd)
            } catch let error as SystemError where error.errno == EMFILE || error.errno == ENFILE {
                shedOneConnection()
                warnOncePerSecond(error)
                return
            } catch {
                warnOncePerSecond(error)
                return
            }
            guard let client = accepted else { return }
            let state = context.state
            if state.openConnections.add(1, ordering: .relaxed).newValue > state.limits.maxConnections {
                state.openConnections.subtract(1, ordering: .relaxed)
                refuse(client)
                continue
            }
            let address = Socket.peerAddress(client)
            let transport: Transport
            if let tls = context.tls {
                guard let session = tls.makeSession(fd: client, logger: state.logger, remoteAddress: address) else {
                    state.openConnections.subtract(1, ordering: .relaxed)
                    Glibc.close(client)
                    continue
                }
                transport = .tls(session)
            } else {
                transport = .plain(client)
            }
            let connection = HTTPConnection(transport: transport, remoteAddress: address, context: context)
            do {
                try context.loop.register(client, handler: connection)
            } catch {
                state.openConnections.subtract(1, ordering: .relaxed)
                Glibc.close(client)
            }
        }
    }

    func tick(now: ContinuousClock.Instant) {
        context.state.earlyResponses.flushSummary()
    }

    /// Out of descriptors: the pending client would wake the (level-triggered) listener again
    /// and again. Free the spare descriptor, accept that client, answer 503, close, re-arm.
    private func shedOneConnection() {
        if spareFD >= 0 { Glibc.close(spareFD) }
        if let client = try? Socket.accept(fd) { refuse(client) }
        spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    private func warnOncePerSecond(_ error: any Error) {
        let now = ContinuousClock.now
        guard now - lastAcceptWarning > .seconds(1) else { return }
        lastAcceptWarning = now
        context.state.logger.warning("accept failed", metadata: ["error": "\(error)"])
    }

    func close() {
        context.loop.deregister(fd)
        Glibc.close(fd)
        if spareFD >= 0 { Glibc.close(spareFD) }
        spareFD = -1
    }

    /// Answers 503 in one write (a fresh socket's buffer takes it whole) and closes. Over
    /// HTTPS it only closes: the client expects a handshake, and a handshake costs the CPU that
    /// the server is short of.
    private func refuse(_ client: Int32) {
        let reason = "too many open connections"
        context.state.earlyResponses.record(.serviceUnavailable, reason: reason, address: Socket.peerAddress(client))
        guard context.tls == nil else { return _ = Glibc.close(client) }
        var bytes: [UInt8] = []
        ResponseWriter.write(
            .jsonError(.serviceUnavailable, reason: reason), keepAlive: false, isHeadRequest: false, requestVersion: .http1_1,
            date: context.dates.current(), serverName: context.state.serverName, into: &bytes)
        _ = bytes.withUnsafeBytes { Socket.write(client, $0) }
        Glibc.close(client)
    }
}
