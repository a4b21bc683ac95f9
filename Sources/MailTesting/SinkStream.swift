import COpenSSL
import Glibc

/// One accepted SMTP connection's bytes, plain or (after STARTTLS) through OpenSSL, read a
/// line at a time. Blocking: each connection has a thread of its own (`MailSink`), and every
/// read has a timeout, so no thread outlives a test by long.
final class SinkStream {
    let fd: Int32
    private var ssl: OpaquePointer?
    private var buffer: [UInt8] = []

    init(fd: Int32, readTimeout: Duration) {
        self.fd = fd
        var tv = timeval(tv_sec: Int(readTimeout.components.seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        if let ssl {
            SSL_shutdown(ssl)
            SSL_free(ssl)
        }
        close(fd)
    }

    var isTLS: Bool { ssl != nil }

    /// Runs the server side of a TLS handshake on the socket; false when it failed (the
    /// client refused the certificate, say). Bytes read before it are dropped (RFC 3207 §4.2:
    /// nothing may follow STARTTLS in the same packet).
    func startTLS(_ context: SinkTLSContext) -> Bool {
        buffer = []
        guard let ssl = SSL_new(context.context) else { return false }
        self.ssl = ssl
        SSL_set_fd(ssl, fd)
        guard SSL_accept(ssl) == 1 else {
            ERR_clear_error()
            SSL_free(ssl)
            self.ssl = nil
            return false
        }
        return true
    }

    /// The next line without its CRLF (or LF); nil at the end of the stream, a read timeout or an error.
    func readLine() -> [UInt8]? {
        while true {
            if let end = buffer.firstIndex(of: 0x0A) {
                var line = Array(buffer[..<end])
                buffer.removeSubrange(...end)
                if line.last == 0x0D { line.removeLast() }
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 16384)
            let count = chunk.withUnsafeMutableBytes { receive(into: $0) }
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
        }
    }

    /// Waits until the peer closes (or the read times out), discarding what it sends: a
    /// server that has stopped answering.
    func drainUntilClosed() {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while chunk.withUnsafeMutableBytes({ receive(into: $0) }) > 0 {}
    }

    func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeMutableBytes { raw in
                let rest = UnsafeRawBufferPointer(rebasing: raw[offset...])
                if let ssl { return Int(SSL_write(ssl, rest.baseAddress, Int32(rest.count))) }
                return send(fd, rest.baseAddress, rest.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { return }
            offset += count
        }
        bytes.removeAll()
    }

    private func receive(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        if let ssl { return Int(SSL_read(ssl, buffer.baseAddress, Int32(buffer.count))) }
        return recv(fd, buffer.baseAddress, buffer.count, 0)
    }
}
