import Foundation
import Glibc
import Synchronization
import Threads

/// A small SMTP server of the tests' own on a loopback port: it takes messages the way a
/// relay would (EHLO, optional STARTTLS with a test certificate, AUTH PLAIN/LOGIN accepting
/// any credentials, MAIL, RCPT, DATA) and keeps each accepted one for the test to read.
/// It can be told to refuse the next messages (`451`, `554`) or to stop answering (`hang`).
///
/// ```swift
/// let sink = try MailSink()
/// defer { sink.stop() }
/// // … point SMTP_URL at smtp://127.0.0.1:\(sink.port) and queue a message …
/// let mail = try await sink.waitForMessages(count: 1)
/// ```
///
/// One thread accepts, one thread per connection talks; `stop()` ends them all.
public final class MailSink: Sendable {
    public let port: Int
    private let listener: Int32
    private let tls: SinkTLSContext?
    /// TLS from the first byte (`smtps://`) instead of STARTTLS.
    let implicitTLS: Bool
    private let state = Mutex(State())

    private struct State {
        var messages: [ReceivedMail] = []
        var scripted: [SinkReply] = []
        var otherwise = SinkReply.accept
        var recipientReply = SinkReply.accept
        var attempts: [ReceivedMail] = []
        var connections: [Int32] = []
        var connectionCount = 0
        var stopped = false
        var waiters: [UUID: (count: Int, attempts: Bool, continuation: CheckedContinuation<Void, Never>)] = [:]
        /// Waits whose time ran out, even before their waiter registered.
        var expired: Set<UUID> = []

        func count(_ attempts: Bool) -> Int { attempts ? self.attempts.count : messages.count }

        /// Takes out the waiters whose count is reached.
        mutating func readyWaiters() -> [CheckedContinuation<Void, Never>] {
            let ready = waiters.filter { count($0.value.attempts) >= $0.value.count }
            for id in ready.keys { waiters[id] = nil }
            return ready.values.map(\.continuation)
        }
    }

    /// Listens on `host` (loopback by default; `0.0.0.0` for a test that must reach it by a
    /// non-loopback address). With a certificate, it offers STARTTLS with it, or with
    /// `implicitTLS` speaks TLS from the first byte (`smtps://`).
    public init(
        host: String = "127.0.0.1", certificateFile: String? = nil, privateKeyFile: String? = nil, implicitTLS: Bool = false
    ) throws {
        self.implicitTLS = implicitTLS
        signal(SIGPIPE, SIG_IGN)  // OpenSSL writes to sockets a client may have closed
        if let certificateFile, let privateKeyFile {
            tls = try SinkTLSContext(certificateFile: certificateFile, privateKeyFile: privateKeyFile)
        } else {
            tls = nil
        }
        (listener, port) = try Self.listen(on: host)
        try OSThread.detach(name: "mail-sink") { [self] in acceptLoop() }
    }

    deinit { stop() }

    /// The next `replies.count` messages get these answers, in order; then `otherwise`.
    public func answerNext(_ replies: [SinkReply]) {
        state.withLock { $0.scripted += replies }
    }

    /// What every message gets once the scripted answers are used up (`.accept` at first).
    public func answerOtherwise(_ reply: SinkReply) {
        state.withLock { $0.otherwise = reply }
    }

    /// What every `RCPT TO` gets (`.accept` at first; `.hang` is not offered there).
    public func answerRecipients(_ reply: SinkReply) {
        state.withLock { $0.recipientReply = reply }
    }

    /// The messages accepted so far, in order of arrival.
    public var messages: [ReceivedMail] { state.withLock { $0.messages } }

    /// Every message whose data arrived, accepted or not (a refused one, one met by a hang).
    public var attempts: [ReceivedMail] { state.withLock { $0.attempts } }

    /// Connections accepted so far.
    public var connectionCount: Int { state.withLock { $0.connectionCount } }

    /// Returns once `count` messages have been accepted (all of them), or throws
    /// `MailSinkError.timedOut` after `timeout`.
    public func waitForMessages(count: Int, timeout: Duration = .seconds(20)) async throws -> [ReceivedMail] {
        try await wait(for: count, timeout: timeout, attempts: false)
    }

    /// Returns once the data of `count` messages arrived, whatever the answer (`attempts`).
    public func waitForAttempts(count: Int, timeout: Duration = .seconds(20)) async throws -> [ReceivedMail] {
        try await wait(for: count, timeout: timeout, attempts: true)
    }

    private func wait(for count: Int, timeout: Duration, attempts: Bool) async throws -> [ReceivedMail] {
        let id = UUID()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                await withCheckedContinuation { continuation in
                    let ready = state.withLock { state in
                        if state.count(attempts) >= count || state.expired.contains(id) || state.stopped { return true }
                        state.waiters[id] = (count, attempts, continuation)
                        return false
                    }
                    if ready { continuation.resume() }
                }
            }
            group.addTask { [self] in
                try? await Task.sleep(for: timeout)
                let waiter = state.withLock { state in
                    state.expired.insert(id)
                    return state.waiters.removeValue(forKey: id)
                }
                waiter?.continuation.resume()
            }
            await group.next()
            group.cancelAll()  // ends the other child: the sleep throws, or the waiter was just resumed
        }
        state.withLock { _ = $0.expired.remove(id) }
        let messages = attempts ? self.attempts : self.messages
        guard messages.count >= count else { throw MailSinkError.timedOut(expected: count, received: messages.count) }
        return messages
    }

    /// Closes the listener and every connection (a hanging one too); idempotent.
    public func stop() {
        let connections = state.withLock { state -> [Int32]? in
            guard !state.stopped else { return nil }
            state.stopped = true
            return state.connections
        }
        guard let connections else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for fd in connections { shutdown(fd, Int32(SHUT_RDWR)) }
        let waiters = state.withLock { state in
            defer { state.waiters = [:] }
            return state.waiters.values
        }
        for waiter in waiters { waiter.continuation.resume() }
    }

    // MARK: - Connections

    private func acceptLoop() {
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else {
                if errno == EINTR { continue }
                return  // the listener was closed: stop()
            }
            let accepted = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.connections.append(fd)
                state.connectionCount += 1
                return true
            }
            guard accepted else {
                close(fd)
                return
            }
            do {
                try OSThread.detach(name: "mail-sink-conn") { [self] in
                    let stream = SinkStream(fd: fd, readTimeout: .seconds(60))
                    SinkConversation(stream: stream, tls: tls, sink: self).run()
                    state.withLock { $0.connections.removeAll { $0 == fd } }
                }
            } catch {
                close(fd)
            }
        }
    }

    /// The answer for the message that just ended: the next scripted one, else `otherwise`.
    func nextReply() -> SinkReply {
        state.withLock { state in state.scripted.isEmpty ? state.otherwise : state.scripted.removeFirst() }
    }

    func recipientReply() -> SinkReply {
        state.withLock { $0.recipientReply }
    }

    func noteAttempt(_ message: ReceivedMail) {
        let ready = state.withLock { state in
            state.attempts.append(message)
            return state.readyWaiters()
        }
        for continuation in ready { continuation.resume() }
    }

    func keep(_ message: ReceivedMail) {
        let ready = state.withLock { state in
            state.messages.append(message)
            return state.readyWaiters()
        }
        for continuation in ready { continuation.resume() }
    }

    private static func listen(on host: String) throws -> (Int32, Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw MailSinkError.socket("socket: errno \(errno)") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        inet_pton(AF_INET, host, &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound, Glibc.listen(fd, 64) == 0 else {
            close(fd)
            throw MailSinkError.socket("cannot listen on \(host): errno \(errno)")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
