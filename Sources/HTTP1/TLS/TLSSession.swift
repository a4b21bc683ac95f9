import COpenSSL
import Glibc
import Logging
import Sockets

/// One connection's TLS session (`SSL`) over its non-blocking socket, driven by the
/// connection's epoll events like a plain socket: no thread waits on a handshake.
///
/// The handshake happens inside the first `read`s (`SSL_set_accept_state`). OpenSSL answers
/// "want read" or "want write" when the socket would block; both become `.wouldBlock`. A read
/// may need the socket to become writable (handshake messages, TLS 1.3 session tickets) and a
/// write may need it readable: `unblocked(by:)` turns the readiness that frees the blocked
/// call into the readiness the connection waits for.
///
/// Confined to its connection's loop thread, like the connection.
final class TLSSession {
    /// Owned: freed in `deinit`. Unsafe only in that OpenSSL must not see it after that.
    private let ssl: OpaquePointer
    let fd: Int32
    /// The last `read` stopped because OpenSSL had to write first.
    private var readWantsWritable = false
    /// The last `write` stopped because OpenSSL had to read first.
    private var writeWantsReadable = false
    /// A fatal error or the peer's close_notify: no further SSL call but `SSL_free`.
    private var finished = false
    /// The handshake ended in a protocol error (old version, no shared suite or protocol,
    /// not TLS at all), as opposed to the peer simply leaving.
    private(set) var handshakeFailed = false
    /// Where a failed handshake is explained (debug level: a client's mistake, not the server's).
    private let logger: Logger
    private let remoteAddress: String?

    init?(context: OpaquePointer, fd: Int32, logger: Logger, remoteAddress: String?) {
        self.logger = logger
        self.remoteAddress = remoteAddress
        guard let ssl = SSL_new(context) else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        self.ssl = ssl
        self.fd = fd
        guard SSL_set_fd(ssl, fd) == 1 else {
            OpenSSLErrorQueue.clear()
            return nil  // `deinit` frees `ssl`
        }
        SSL_set_accept_state(ssl)
    }

    deinit { SSL_free(ssl) }

    var isHandshakeComplete: Bool { SSL_is_init_finished(ssl) == 1 }

    /// Decrypts as much as `buffer` takes. `SSL_read` hands out one record (≤ 16 KiB) per call
    /// and may hold more in its own buffer, so it is called until OpenSSL needs the socket
    /// again: a result shorter than `buffer` therefore means "nothing more until the next
    /// event", the same promise a short plain `read` gives. A closed or broken session is
    /// `.closed`, dropping bytes that came with the end (as a plain connection's FIN does).
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Socket.IOResult {
        guard !finished, let base = buffer.baseAddress else { return .closed }
        readWantsWritable = false
        var total = 0
        while total < buffer.count {
            OpenSSLErrorQueue.clear()
            // Asked before the call: after a fatal error OpenSSL reports itself "in init"
            // again, which would make every abrupt end of a session look like a handshake failure.
            let handshaking = !isHandshakeComplete
            let count = SSL_read(ssl, base + total, Int32(clamping: buffer.count - total))
            if count > 0 {
                total += Int(count)
                continue
            }
            switch SSL_get_error(ssl, count) {
            case SSL_ERROR_WANT_READ:
                break
            case SSL_ERROR_WANT_WRITE:
                readWantsWritable = true
            case SSL_ERROR_SSL where handshaking:
                handshakeFailed = true
                logger.debug(
                    "TLS handshake failed: \(OpenSSLErrorQueue.drain())", metadata: ["address": .string(remoteAddress ?? "-")])
                fail()
                return .closed
            default:
                fail()
                return .closed
            }
            break
        }
        return total > 0 ? .bytes(total) : .wouldBlock
    }

    /// Encrypts and sends from `bytes`; with partial writes enabled, a count below
    /// `bytes.count` when the socket filled up. After `.wouldBlock` the caller retries with the
    /// same unsent bytes first (it may add more after them, and the buffer may move).
    func write(_ bytes: UnsafeRawBufferPointer) -> Socket.IOResult {
        guard !finished, let base = bytes.baseAddress, !bytes.isEmpty else { return finished ? .closed : .bytes(0) }
        writeWantsReadable = false
        OpenSSLErrorQueue.clear()
        let count = SSL_write(ssl, base, Int32(clamping: bytes.count))
        if count > 0 { return .bytes(Int(count)) }
        switch SSL_get_error(ssl, count) {
        case SSL_ERROR_WANT_WRITE:
            return .wouldBlock
        case SSL_ERROR_WANT_READ:
            writeWantsReadable = true
            return .wouldBlock
        default:
            fail()
            return .closed
        }
    }

    /// The readiness `readiness` amounts to for this session's blocked calls.
    func unblocked(by readiness: Readiness) -> Readiness {
        var result = readiness
        if readWantsWritable, readiness.contains(.writable) { result.insert(.readable) }
        if writeWantsReadable, !readiness.intersection([.readable, .hangUp]).isEmpty { result.insert(.writable) }
        return result
    }

    /// Sends close_notify if the session is up, best effort: never waits for the socket nor for
    /// the peer's own close_notify (the socket closes or half-closes right after).
    /// SIGPIPE from the socket write is ignored process-wide (`HTTPServer.init`).
    func sendCloseNotify() {
        guard !finished, isHandshakeComplete else { return }
        OpenSSLErrorQueue.clear()
        _ = SSL_shutdown(ssl)
        OpenSSLErrorQueue.clear()
    }

    /// The socket is about to close: close_notify as above, then no SSL call on this session
    /// again (the descriptor's number may soon belong to another connection).
    func end() {
        sendCloseNotify()
        finished = true
    }

    private func fail() {
        finished = true
        OpenSSLErrorQueue.clear()
    }
}
