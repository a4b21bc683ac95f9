import Foundation
import Glibc
import Web

/// A blocking TCP connection to a server on loopback, for wire-level tests: send exact bytes,
/// read exact responses, hold a connection idle, disconnect mid-request. Every read has a
/// timeout, so a test never hangs.
public final class RawConnection {
    public let fd: Int32
    private var buffer: [UInt8] = []
    private var isOpen = true
    /// True once a read met the end of the stream: the server closed its side.
    private var peerClosed = false

    /// `receiveBufferSize` shrinks the socket's receive buffer before connecting (which also
    /// stops the kernel growing it), for a client whose unread responses must stay on the server.
    public init(host: String = "127.0.0.1", port: Int, timeout: Duration = .seconds(10), receiveBufferSize: Int? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestClientError.connect(errno) }
        if var size = receiveBufferSize.map(Int32.init) {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let error = errno
            Glibc.close(fd)
            throw TestClientError.connect(error)
        }
        let seconds = timeout.components.seconds
        var tv = timeval(tv_sec: Int(seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Takes over a connected socket that `detachIfIdle` gave up (its timeouts are kept).
    init(adopting fd: Int32) {
        self.fd = fd
    }

    deinit { close() }

    /// Gives up the socket without closing it, for reuse by another request: only when the
    /// last response was read completely and the server has not closed its side.
    func detachIfIdle() -> Int32? {
        guard isOpen, buffer.isEmpty, !peerClosed else { return nil }
        isOpen = false
        return fd
    }

    /// True when `fd` is still connected with nothing to read: no close, no stray bytes.
    static func isOpenAndQuiet(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
    }

    /// Closes the socket now (a client that gives up mid-request).
    public func close() {
        guard isOpen else { return }
        isOpen = false
        Glibc.close(fd)
    }

    public func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw TestClientError.closed }
            offset += n
        }
    }

    public func write(_ text: String) throws { try write(Array(text.utf8)) }

    /// Reads one complete response (or throws on timeout / close before it is complete).
    public func readResponse(isHead: Bool = false) throws -> TestResponse {
        while true {
            if let (response, used) = TestResponse.parse(buffer[...], isHead: isHead),
               response.headers["Content-Length"] != nil || isHead || response.status.forbidsBody {
                buffer.removeFirst(used)
                return response
            }
            guard try fill() else {
                if let (response, used) = TestResponse.parse(buffer[...], isHead: isHead) {
                    buffer.removeFirst(used)
                    return response
                }
                throw TestClientError.closed
            }
        }
    }

    /// Reads until the server closes the connection; the bytes received.
    public func readUntilClose() throws -> [UInt8] {
        while try fill() {}
        defer { buffer = [] }
        return buffer
    }

    /// True when the server has closed the connection (reads EOF within the timeout).
    public func isClosedByServer() -> Bool {
        (try? readUntilClose()) != nil
    }

    public func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// Reads once; false at end of stream.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n > 0 {
            buffer.append(contentsOf: chunk[..<n])
            return true
        }
        if n == 0 || errno == ECONNRESET {
            peerClosed = true
            return false
        }
        throw errno == EAGAIN || errno == EWOULDBLOCK ? TestClientError.timeout : TestClientError.closed
    }
}

public enum TestClientError: Error, Equatable {
    case connect(Int32)
    case closed
    case timeout
}
