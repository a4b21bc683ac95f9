import Glibc
import Logging
import Sockets
import Synchronization

/// One client connection: reads bytes into the parser, runs one request at a time through
/// the responder (so pipelined responses leave in request order), writes responses, and
/// enforces the timeouts. Confined to its event loop's thread. Its bytes go through a
/// `Transport`, the socket itself or a TLS session on it, whichever the listener gave it.
///
/// A peer that shuts its side while a handler runs has gone (as nginx treats it): the
/// handler's task is cancelled, so a login stops before its bcrypt, and nothing is written.
/// Pipelined bytes are not a hang-up: they only make the socket readable, and wait in the
/// kernel until the response is out.
///
/// Backpressure: see `OutputBackpressure`.
final class HTTPConnection: EventHandler {
    let transport: Transport
    /// When the connection was accepted: the TLS handshake must end within its timeout.
    private let accepted: ContinuousClock.Instant
    /// The peer's address, formatted once at accept and shared by every request it sends.
    private let remoteAddress: String?
    private let context: LoopContext
    private var parser: HTTPRequestParser
    private var phase = ConnectionPhase.reading
    private var readable = false
    private var writable = true
    private var output = OutputBuffer()
    private var backpressure = OutputBackpressure()
    private var lastActivity: ContinuousClock.Instant
    private var requestStarted: ContinuousClock.Instant?
    private var writeStalledSince: ContinuousClock.Instant?
    /// The running handler, kept to cancel it when the peer leaves.
    private var handlerTask: Task<Void, Never>?
    /// True while `dispatch` runs: an answer ready at once completes inside it.
    private var dispatching = false
    /// EPOLLRDHUP, EPOLLHUP or EPOLLERR was seen: sticky, because an edge-triggered event
    /// reports it once, possibly together with the bytes of the request it ends.
    private var peerHungUp = false

    init(transport: Transport, remoteAddress: String?, context: LoopContext) {
        self.transport = transport
        self.remoteAddress = remoteAddress
        self.context = context
        parser = HTTPRequestParser(limits: context.state.limits)
        accepted = .now
        lastActivity = accepted
    }

    // MARK: EventHandler

    func handle(_ readiness: Readiness) {
        let readiness = transport.unblocked(by: readiness)
        if !readiness.isDisjoint(with: .hangUp) { peerHungUp = true }
        if !readiness.intersection([.readable, .hangUp]).isEmpty { readable = true }
        if readiness.contains(.writable) { writable = true }
        if peerHungUp, case .responding = phase { return abandon() }
        if !output.isEmpty { flush() }
        advance()
    }

    func tick(now: ContinuousClock.Instant) {
        let limits = context.state.limits
        if !transport.isHandshakeComplete, now - accepted > limits.tlsHandshakeTimeout {
            context.state.failedTLSHandshakes.add(1, ordering: .relaxed)
            return close()
        }
        // In every phase: a client that takes none of its response for this long will not
        // read anything else either, so its connection and pending output go.
        if let stalled = writeStalledSince, now - stalled > limits.writeStallTimeout {
            return close()
        }
        switch phase {
        case .reading where !output.isEmpty:
            advance()  // in case the server-wide budget freed up meanwhile
        case .reading:
            if let started = requestStarted, now - started > limits.requestReadTimeout {
                fail(.requestTimeout, reason: "request not received in time")
            } else if requestStarted == nil, now - lastActivity > limits.idleTimeout {
                close()
            }
        case .lingering(let since) where now - since > .seconds(2):
            close()
        default:
            break
        }
    }

    /// Graceful shutdown: an idle connection closes now, a busy one after its response. Reads
    /// first: a request already in the kernel (its readiness event not yet handled) is served,
    /// with `Connection: close`, where closing on unread bytes would reset the connection.
    func drain() {
        guard case .reading = phase, requestStarted == nil, output.isEmpty else { return }
        readable = true
        advance()
        if case .reading = phase, requestStarted == nil, output.isEmpty { close() }
    }

    // MARK: Reading and dispatching

    /// Moves the connection as far as the bytes at hand allow.
    private func advance() {
        while true {
            switch phase {
            case .reading:
                guard backpressure.mayTakeNextRequest(pending: output.pending, state: context.state) else { return }
                do {
                    if let request = try parser.next() {
                        dispatch(request)
                        continue  // answered already (the handler never suspended), or .responding
                    }
                } catch {
                    fail(error.status, reason: error.reason)
                    return
                }
                if parser.takeContinueSignal() { send(ResponseWriter.continueLine) }
                guard readable, case .reading = phase else { return }
                guard readOnce() else { return }
            case .lingering:
                guard readable else { return }
                guard readOnce(discard: true) else { return }
            case .responding, .closingAfterWrite, .abandoned, .closed:
                return
            }
        }
    }

    /// One `read` into the loop's shared buffer. False when nothing more can be read now.
    private func readOnce(discard: Bool = false) -> Bool {
        switch transport.read(into: context.readBuffer) {
        case .bytes(let count):
            lastActivity = .now
            // A short read drained the socket: with edge-triggered epoll, more bytes bring a
            // new event, so skip the read that would only say EAGAIN.
            if count < context.readBuffer.count { readable = false }
            if discard { return true }
            if requestStarted == nil { requestStarted = lastActivity }
            parser.append(UnsafeRawBufferPointer(rebasing: context.readBuffer[..<count]))
            return true
        case .wouldBlock:
            readable = false
            return false
        case .closed:
            close()
            return false
        }
    }

    private func dispatch(_ request: HTTPRequest) {
        // The peer already hung up (its FIN came with the request): nobody waits for the answer.
        guard !peerHungUp else { return close() }
        var request = request
        request.remoteAddress = remoteAddress
        phase = .responding
        let keepAlive = request.head.keepAlive && !context.state.isDraining
        let isHead = request.head.method == .head
        let version = request.head.version
        let responder = context.state.responder
        // A handler that never suspends, like `/health`, is answered right here; one that
        // awaits runs in a task started immediately on this (the loop's) thread, which it
        // resumes on after each await (its executor preference). Either way, an answer
        // ready now completes inside `dispatch`, and `advance`'s loop (not a nested call)
        // takes the next pipelined request.
        dispatching = true
        defer { dispatching = false }
        switch responder.answer(request) {
        case .now(let response):
            complete(response, keepAlive: keepAlive, isHead: isHead, version: version)
        case .later(let work):
            let connection = LoopBound(self, loop: context.loop)
            let task = Task.immediate(executorPreference: context.loop) {
                let response = await work()
                connection.execute { $0.complete(response, keepAlive: keepAlive, isHead: isHead, version: version) }
            }
            if case .responding = phase { handlerTask = task }
        }
    }

    private func complete(_ response: HTTPResponse, keepAlive: Bool, isHead: Bool, version: HTTPVersion) {
        handlerTask = nil
        if case .abandoned = phase {
            phase = .closed
            context.state.openConnections.subtract(1, ordering: .relaxed)
            return
        }
        guard case .responding = phase else { return }  // closed while the handler ran
        let keepAlive = keepAlive && !context.state.isDraining
        requestStarted = parser.hasPartialRequest ? .now : nil
        phase = keepAlive ? .reading : .closingAfterWrite
        send(response, keepAlive: keepAlive, isHead: isHead, version: version)
        if !dispatching { advance() }
    }

    // MARK: Writing and closing

    /// Answers a request that cannot be served (parse error, timeout) and closes.
    private func fail(_ status: HTTPStatus, reason: String) {
        context.state.earlyResponses.record(status, reason: reason, address: remoteAddress)
        phase = .closingAfterWrite
        send(.jsonError(status, reason: reason), keepAlive: false, isHead: false, version: .http1_1)
    }

    /// Queues `response` behind any unsent output and writes what the socket takes.
    private func send(_ response: HTTPResponse, keepAlive: Bool, isHead: Bool, version: HTTPVersion) {
        let (date, serverName) = (context.dates.current(), context.state.serverName)
        output.append {
            ResponseWriter.write(
                response, keepAlive: keepAlive, isHeadRequest: isHead, requestVersion: version,
                date: date, serverName: serverName, into: &$0)
        }
        flush()
    }

    private func send(_ bytes: [UInt8]) {
        output.append { $0.append(contentsOf: bytes) }
        flush()
    }

    private func flush() {
        if writable, !output.isEmpty {
            let (written, result) = output.write(to: transport)
            if written > 0 { lastActivity = .now }
            switch result {
            case .sent: break
            case .wouldBlock: writable = false
            case .closed: return close()
            }
        }
        backpressure.account(pending: output.pending, state: context.state)
        guard output.isEmpty else {
            if writeStalledSince == nil { writeStalledSince = .now }
            return
        }
        // The clock of a request that waited behind unsent output starts now.
        if writeStalledSince != nil, requestStarted != nil, case .reading = phase { requestStarted = .now }
        writeStalledSince = nil
        if case .closingAfterWrite = phase {
            transport.shutdownWrite()
            phase = .lingering(since: .now)
            readable = true
            advance()
        }
    }

    func close() {
        switch phase {
        case .closed, .abandoned: return
        default: break
        }
        handlerTask?.cancel()
        handlerTask = nil
        closeSocket()
        phase = .closed
        context.state.openConnections.subtract(1, ordering: .relaxed)
    }

    /// The peer left mid-request: cancel the handler and close the socket now; `complete`
    /// ends the accounting when the handler returns.
    private func abandon() {
        handlerTask?.cancel()
        handlerTask = nil
        closeSocket()
        phase = .abandoned
    }

    private func closeSocket() {
        if transport.handshakeFailed { context.state.failedTLSHandshakes.add(1, ordering: .relaxed) }
        context.loop.deregister(transport.fd)
        transport.close()
        output.removeAll()
        backpressure.account(pending: output.pending, state: context.state)
        writeStalledSince = nil
    }
}
