import Glibc
import Sockets

/// How a connection's bytes travel: straight over its socket, or through a TLS session on it.
/// `HTTPConnection` reads, writes and closes through this and never asks which one it has.
///
/// Both keep the promise the connection's edge-triggered reading relies on: a read that
/// returns fewer bytes than asked for has taken everything available until the next event.
enum Transport {
    case plain(Int32)
    case tls(TLSSession)

    var fd: Int32 {
        switch self {
        case .plain(let fd): fd
        case .tls(let session): session.fd
        }
    }

    /// False while a TLS handshake is still under way (see `HTTPServerLimits.tlsHandshakeTimeout`).
    var isHandshakeComplete: Bool {
        switch self {
        case .plain: true
        case .tls(let session): session.isHandshakeComplete
        }
    }

    /// A TLS handshake that failed on a protocol error (counted in `HTTPServer.failedTLSHandshakes`).
    var handshakeFailed: Bool {
        switch self {
        case .plain: false
        case .tls(let session): session.handshakeFailed
        }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Socket.IOResult {
        switch self {
        case .plain(let fd): Socket.read(fd, into: buffer)
        case .tls(let session): session.read(into: buffer)
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> Socket.IOResult {
        switch self {
        case .plain(let fd): Socket.write(fd, bytes)
        case .tls(let session): session.write(bytes)
        }
    }

    /// What an epoll event means for the blocked reads and writes (TLS may read to write and
    /// write to read).
    func unblocked(by readiness: Readiness) -> Readiness {
        switch self {
        case .plain: readiness
        case .tls(let session): session.unblocked(by: readiness)
        }
    }

    /// Ends the sending side after the last response (TLS close_notify, then the TCP FIN);
    /// the connection still reads until the peer closes.
    func shutdownWrite() {
        if case .tls(let session) = self { session.sendCloseNotify() }
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Closes the socket, after a best-effort TLS close_notify. The TLS session itself is
    /// freed with the connection.
    func close() {
        if case .tls(let session) = self { session.end() }
        Glibc.close(fd)
    }
}
