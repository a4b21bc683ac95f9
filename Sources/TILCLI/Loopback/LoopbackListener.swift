import Foundation
import Glibc

/// A one-shot HTTP listener on `127.0.0.1` with a port the system picks (RFC 8252 §7.3): it
/// catches the browser's redirect at the end of `til login --browser`. Foundation on Linux has
/// no listener, so it is a socket, kept as small as the job: one request at a time, bounded
/// in size and time, answered and closed.
///
/// Only `GET /callback` with `Host: 127.0.0.1:<port>` is the answer; anything else (a stray
/// request, a scan, a page trying DNS rebinding, garbage) is refused with a 4xx and the
/// listener keeps waiting, up to `maxRefusals` of them. The socket is closed after the
/// answer, so a second request finds nobody listening.
final class LoopbackListener: Sendable {
    /// The listening socket (closed by `deinit`).
    private let listening: Int32
    let port: UInt16
    static let path = "/callback"
    /// The longest request head read.
    static let maxHead = 8192
    /// How long one connection may take to send its request.
    static let readTimeout: Duration = .seconds(5)
    /// How many refused requests are borne before giving up.
    static let maxRefusals = 32

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ListenerError.system("socket", errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(INADDR_LOOPBACK).bigEndian
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0, listen(fd, 8) == 0, named == 0 else {
            let error = ListenerError.system("bind 127.0.0.1", errno)
            close(fd)
            throw error
        }
        listening = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit {
        close(listening)
    }

    /// The redirect URI to register the sign-in with.
    var redirectURI: URL { URL(string: "http://127.0.0.1:\(port)\(Self.path)")! }

    /// Waits (on a thread of its own: sockets block) for the browser's redirect, answers it with
    /// a page saying the window may close, and returns the URL it asked for.
    func callback(timeout: Duration) async throws -> URL {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try self.accept(until: .now + timeout) }) }
            thread.name = "til-loopback-listener"
            thread.start()
        }
    }

    private func accept(until deadline: ContinuousClock.Instant) throws -> URL {
        var refusals = 0
        while true {
            guard try Self.wait(for: listening, until: deadline) else { throw ListenerError.timedOut }
            let connection = Glibc.accept(listening, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR || errno == ECONNABORTED { continue }
                throw ListenerError.system("accept", errno)
            }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            defer { close(connection) }
            let head = try? Self.readHead(connection, until: min(deadline, .now + Self.readTimeout))
            switch CallbackRequest.parse(head, port: port) {
            case .callback(let target):
                Self.answer(connection, with: LoopbackPage.signedIn)
                return URL(string: "http://127.0.0.1:\(port)\(target)")!
            case .refused(let page):
                Self.answer(connection, with: page)
                refusals += 1
                guard refusals < Self.maxRefusals else { throw ListenerError.tooManyRefusals }
            }
        }
    }

    /// Whether `fd` became readable before `deadline`.
    private static func wait(for fd: Int32, until deadline: ContinuousClock.Instant) throws -> Bool {
        while true {
            let left = deadline - .now
            guard left > .zero else { return false }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1, 60_000))
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return true }
            if ready < 0, errno != EINTR { throw ListenerError.system("poll", errno) }
        }
    }

    /// The bytes up to the end of the request head (`\r\n\r\n`); nil when the client stopped,
    /// went silent, or sent more than `maxHead` without ending it.
    private static func readHead(_ fd: Int32, until deadline: ContinuousClock.Instant) throws -> [UInt8]? {
        var head: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 2048)
        while true {
            guard try wait(for: fd, until: deadline) else { return nil }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            head += chunk[0..<count]
            if let end = head.firstRange(of: [13, 10, 13, 10]) { return end.upperBound <= maxHead ? Array(head[..<end.upperBound]) : nil }
            guard head.count <= maxHead else { return nil }
        }
    }

    /// Writes all of `page` (best effort: a browser that left gets nothing).
    private static func answer(_ fd: Int32, with page: LoopbackPage) {
        let bytes = page.bytes
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            offset += count
        }
    }
}

/// Why no callback came.
enum ListenerError: Error, CustomStringConvertible {
    case timedOut
    case tooManyRefusals
    /// A socket call that failed, with its `errno`.
    case system(String, Int32)

    var description: String {
        switch self {
        case .timedOut: "the browser did not come back in time; run `til login --browser` again"
        case .tooManyRefusals: "too many requests that were not the sign-in's answer reached the listener; run `til login --browser` again"
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        }
    }
}
