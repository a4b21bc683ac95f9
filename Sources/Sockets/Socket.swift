import CLinux
import Glibc

/// Thin wrappers over the socket calls the server makes, all on non-blocking descriptors.
/// Descriptors are plain `Int32`s owned by whoever opened them (the listener or a connection).
public enum Socket {
    /// What a non-blocking read or write achieved.
    public enum IOResult: Equatable, Sendable {
        case bytes(Int)
        case wouldBlock
        case closed
    }

    /// A listening TCP socket on `host:port` (IPv4 or IPv6 literal, or "localhost").
    /// `reusePort` lets one listener per event loop share the port, so the kernel spreads
    /// new connections over the loops without a shared accept lock.
    public static func listen(host: String, port: Int, reusePort: Bool, backlog: Int32 = 1024) throws -> Int32 {
        let fd = try bind(host: host, port: port, reusePort: reusePort)
        guard Glibc.listen(fd, backlog) == 0 else {
            let error = SystemError("listen")
            close(fd)
            throw error
        }
        return fd
    }

    /// Throws `EADDRINUSE` when any socket holds `host:port`, even one that lets others share
    /// it (`SO_REUSEPORT`): binds without that option and closes at once, never listening.
    public static func checkPortIsFree(host: String, port: Int) throws {
        close(try bind(host: host, port: port, reusePort: false))
    }

    /// A TCP socket bound to `host:port`, non-blocking.
    private static func bind(host: String, port: Int, reusePort: Bool) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = clinux_SOCK_STREAM
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var info: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host == "localhost" ? "127.0.0.1" : host, String(port), &hints, &info)
        guard status == 0, let first = info else {
            throw SystemError("getaddrinfo(\(host))", errno: status == EAI_SYSTEM ? errno : EINVAL)
        }
        defer { freeaddrinfo(info) }

        let fd = socket(first.pointee.ai_family, clinux_SOCK_STREAM | clinux_SOCK_NONBLOCK | clinux_SOCK_CLOEXEC, 0)
        guard fd >= 0 else { throw SystemError("socket") }
        do {
            try setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
            if reusePort { try setOption(fd, SOL_SOCKET, SO_REUSEPORT, 1) }
            guard Glibc.bind(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else { throw SystemError("bind(\(host):\(port))") }
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// The port a bound socket actually got (for `port: 0`).
    public static func localPort(_ fd: Int32) throws -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard rc == 0 else { throw SystemError("getsockname") }
        let family = Int32(storage.ss_family)
        return withUnsafePointer(to: &storage) { pointer in
            if family == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
        }
    }

    /// Accepts one pending connection as a non-blocking descriptor, or nil when none is pending.
    public static func accept(_ listener: Int32) throws -> Int32? {
        let fd = clinux_accept4(listener)
        if fd >= 0 {
            try? setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
            return fd
        }
        switch errno {
        case EAGAIN, EWOULDBLOCK, EINTR, ECONNABORTED, EPROTO: return nil
        default: throw SystemError("accept4")
        }
    }

    /// The peer's IP address as text ("127.0.0.1", "::1"), an IPv4-mapped IPv6 address shown
    /// as IPv4; nil when the socket has no IP peer. Called once per connection, at accept.
    public static func peerAddress(_ fd: Int32) -> String? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        guard rc == 0 else { return nil }
        return withUnsafePointer(to: &storage) { pointer -> String? in
            switch Int32(pointer.pointee.ss_family) {
            case AF_INET:
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                    var address = ipv4.pointee.sin_addr
                    return IPAddress(raw: withUnsafeBytes(of: &address) { Array($0) }).description
                }
            case AF_INET6:
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                    var address = ipv6.pointee.sin6_addr
                    return IPAddress(raw: withUnsafeBytes(of: &address) { Array($0) }).description
                }
            default:
                return nil
            }
        }
    }

    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n > 0 { return .bytes(n) }
            if n == 0 { return .closed }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .closed
            }
        }
    }

    /// Writes without raising SIGPIPE when the peer has gone.
    public static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> IOResult {
        while true {
            let n = send(fd, bytes.baseAddress, bytes.count, clinux_MSG_NOSIGNAL)
            if n >= 0 { return .bytes(n) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .closed
            }
        }
    }

    private static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) throws {
        var value = value
        guard setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw SystemError("setsockopt")
        }
    }
}
