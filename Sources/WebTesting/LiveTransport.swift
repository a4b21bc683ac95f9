import Glibc
import Synchronization
import Web

/// Sends test requests over loopback TCP to a running server, the way a browser does: a
/// request takes an idle keep-alive connection (or opens one) and gives it back after a
/// complete response, unless the server answered `Connection: close`. Requests sent at the
/// same time get connections of their own, so a concurrency test still reaches the server in
/// parallel; sequential requests share one connection instead of a connect and a close each.
///
/// Each exchange runs on a thread of its own (`onThread`): the socket calls block, and the
/// server's tasks may need every thread of the cooperative pool.
final class LiveTransport: Sendable {
    let host: String
    let port: Int
    /// Descriptors of idle connections, the most recently used last.
    private let idle = Mutex<[Int32]>([])

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    deinit {
        for fd in idle.withLock({ $0 }) { Glibc.close(fd) }
    }

    func send(_ request: TestRequest) async throws -> TestResponse {
        let bytes = request.bytes
        let isHead = request.head.method == .head
        return try await onThread { try self.exchange(bytes, isHead: isHead) }
    }

    /// On an idle connection if there is one; when the server had closed it meanwhile (its
    /// idle timeout), once more on a new connection.
    private func exchange(_ bytes: [UInt8], isHead: Bool) throws -> TestResponse {
        if let reused = takeIdle() {
            do {
                return try exchange(bytes, isHead: isHead, on: reused)
            } catch TestClientError.closed {}
        }
        return try exchange(bytes, isHead: isHead, on: RawConnection(host: host, port: port))
    }

    private func exchange(_ bytes: [UInt8], isHead: Bool, on connection: RawConnection) throws -> TestResponse {
        try connection.write(bytes)
        let response = try connection.readResponse(isHead: isHead)
        if response.headers["Connection"]?.lowercased() != "close", let fd = connection.detachIfIdle() {
            idle.withLock { $0.append(fd) }
        }
        return response
    }

    /// The newest idle connection still open and quiet; closed ones are dropped.
    private func takeIdle() -> RawConnection? {
        while let fd = idle.withLock({ $0.popLast() }) {
            if RawConnection.isOpenAndQuiet(fd) { return RawConnection(adopting: fd) }
            Glibc.close(fd)
        }
        return nil
    }
}
