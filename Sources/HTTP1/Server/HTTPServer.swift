import Glibc
public import Logging
import Sockets
import Synchronization
public import Threads

/// An HTTP/1.1 server: one event loop per core, each with its own `SO_REUSEPORT` listener,
/// serving a single `HTTPResponder`. A port another process holds is refused
/// (`HTTPServerError.addressInUse`) unless `reusePort` asks to share it.
///
/// ```swift
/// let server = HTTPServer(configuration: .init(port: 8080), responder: app, logger: logger)
/// try server.start()
/// ...
/// await server.shutdown(gracePeriod: .seconds(10))
/// ```
public final class HTTPServer: Sendable {
    public struct Configuration: Sendable {
        public var host: String
        public var port: Int
        public var limits: HTTPServerLimits
        /// Event loop threads; defaults to the number of cores.
        public var loopCount: Int
        public var serverName: String
        /// Join the listeners of another process already on the port instead of failing: the
        /// new process of a zero-downtime restart, started before the old one is stopped.
        /// (The loops' own listeners always share the port among themselves.)
        public var reusePort: Bool
        /// Serve HTTPS with this certificate and key; nil (the default) serves plain HTTP.
        public var tls: TLSConfiguration?

        public init(
            host: String = "127.0.0.1", port: Int = 8080, limits: HTTPServerLimits = .init(),
            loopCount: Int = OSThread.coreCount, serverName: String = "TIL", reusePort: Bool = false,
            tls: TLSConfiguration? = nil
        ) {
            self.host = host
            self.port = port
            self.limits = limits
            self.loopCount = max(1, loopCount)
            self.serverName = serverName
            self.reusePort = reusePort
            self.tls = tls
        }
    }

    private struct Running {
        var loops: [EventLoop] = []
        var port = 0
        var exited = 0
        var exitWaiters: [CheckedContinuation<Void, Never>] = []
    }

    public let configuration: Configuration
    private let state: ServerState
    private let running = Mutex(Running())

    public init(configuration: Configuration, responder: any HTTPResponder, logger: Logger) {
        self.configuration = configuration
        state = ServerState(
            responder: responder, limits: configuration.limits,
            serverName: configuration.serverName, logger: logger)
        signal(SIGPIPE, SIG_IGN)
    }

    /// The bound port (useful with `port: 0`), or 0 before `start()`.
    public var port: Int { running.withLock { $0.port } }

    /// Connections currently open, over all loops.
    public var openConnections: Int { state.openConnections.load(ordering: .relaxed) }

    /// How often the server answered by itself, before routing (parse errors, read timeouts,
    /// the connection limit): for metrics.
    public var earlyResponses: EarlyResponseCounts { state.earlyResponses.counts }

    /// TLS handshakes that failed on a protocol error (an old version, no shared cipher or
    /// application protocol, not TLS at all) or did not finish within `tlsHandshakeTimeout`.
    public var failedTLSHandshakes: Int { state.failedTLSHandshakes.load(ordering: .relaxed) }

    /// Response bytes built but not yet taken by the kernel, over all connections (see the
    /// backpressure limits in `HTTPServerLimits`).
    public var pendingOutputBytes: Int { state.pendingOutputBytes.load(ordering: .relaxed) }

    /// Binds and starts the loops; returns once the server accepts connections. Throws
    /// `HTTPServerError.addressInUse` when another socket holds the port and `reusePort` is off,
    /// `TLSSetupError` when the TLS certificate or key cannot be used.
    public func start() throws {
        let tls = try configuration.tls.map { configuration throws(TLSSetupError) in try TLSContext(configuration) }
        System.raiseFileDescriptorLimit(toAtLeast: configuration.limits.maxConnections + 256)
        let host = configuration.host
        var port = configuration.port
        var setup: [(EventLoop, Int32)] = []
        do {
            // The loops' listeners must share the port (SO_REUSEPORT), which would also let
            // them join another process's listeners: make sure there are none, unless asked.
            if !configuration.reusePort && port != 0 { try Socket.checkPortIsFree(host: host, port: port) }
            for index in 0..<configuration.loopCount {
                let fd = try Socket.listen(host: host, port: port, reusePort: true)
                if port == 0 { port = try Socket.localPort(fd) }
                setup.append((try EventLoop(index: index), fd))
            }
        } catch let error as SystemError where error.errno == EADDRINUSE {
            for (_, fd) in setup { close(fd) }
            throw HTTPServerError.addressInUse(host: host, port: port)
        } catch {
            for (_, fd) in setup { close(fd) }
            throw error
        }
        running.withLock { $0.port = port }
        for (loop, fd) in setup {
            try loop.start { [self] in loopExited() }
            // Made on its loop's thread, like everything the loop confines (its context too).
            loop.execute { [state] in
                let listener = Listener(fd: fd, context: LoopContext(loop: loop, state: state, tls: tls))
                do { try loop.registerListener(fd, handler: listener) } catch {
                    state.logger.critical("cannot watch listener: \(error)")
                }
            }
            running.withLock { $0.loops.append(loop) }
        }
        state.logger.info(
            "server started",
            metadata: ["address": "\(configuration.host):\(port)", "loops": "\(setup.count)", "tls": "\(tls != nil)"])
    }

    /// Stops accepting, lets in-flight requests finish (closing their connections after the
    /// response) and closes idle keep-alive connections; after `gracePeriod`, closes the rest.
    public func shutdown(gracePeriod: Duration = .seconds(10)) async {
        let loops = running.withLock { $0.loops }
        guard !loops.isEmpty else { return }
        state.draining.store(true, ordering: .relaxed)
        for loop in loops {
            loop.execute {
                loop.forEachHandler { ($0 as? Listener)?.close() }
                loop.forEachHandler { ($0 as? HTTPConnection)?.drain() }
            }
        }
        let deadline = ContinuousClock.now + gracePeriod
        while openConnections > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        for loop in loops {
            loop.execute { loop.forEachHandler { ($0 as? HTTPConnection)?.close() } }
            loop.stop()
        }
        await withCheckedContinuation { continuation in
            let done = running.withLock { running -> Bool in
                if running.exited == running.loops.count { return true }
                running.exitWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
        running.withLock { $0 = Running() }
        state.logger.info("server stopped")
    }

    private func loopExited() {
        let waiters = running.withLock { running -> [CheckedContinuation<Void, Never>] in
            running.exited += 1
            guard running.exited == running.loops.count else { return [] }
            defer { running.exitWaiters = [] }
            return running.exitWaiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
