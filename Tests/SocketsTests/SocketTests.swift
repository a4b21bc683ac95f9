import Glibc
import Sockets
import XCTest

/// The socket calls on their own: non-blocking reads and writes, and a loopback listener.
final class SocketTests: XCTestCase {
    func testWritesStopAtWouldBlockWhenThePeerDoesNotRead() throws {
        let pair = try SocketPair()
        defer { pair.closeBoth() }
        let chunk = [UInt8](repeating: 7, count: 64 * 1024)
        var written = 0
        var last = Socket.IOResult.bytes(0)
        for _ in 0..<1000 {
            last = chunk.withUnsafeBytes { Socket.write(pair.left, $0) }
            guard case .bytes(let count) = last else { break }
            written += count
        }
        XCTAssertEqual(last, .wouldBlock)
        XCTAssertGreaterThan(written, 0)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
        defer { buffer.deallocate() }
        var read = 0
        while case .bytes(let count) = Socket.read(pair.right, into: buffer) { read += count }
        XCTAssertEqual(read, written, "every byte a write reported is delivered")
    }

    func testListenAcceptAndPeerAddressOnLoopback() throws {
        let listener = try Socket.listen(host: "127.0.0.1", port: 0, reusePort: false)
        defer { close(listener) }
        let port = try Socket.localPort(listener)
        XCTAssertGreaterThan(port, 0)
        XCTAssertNil(try Socket.accept(listener), "nothing pending: nil, not an error")

        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        XCTAssertEqual(connected, 0)
        var accepted: Int32?
        for _ in 0..<100 where accepted == nil {
            accepted = try Socket.accept(listener)
            if accepted == nil { usleep(1000) }
        }
        let server = try XCTUnwrap(accepted)
        defer { close(server) }
        XCTAssertEqual(Socket.peerAddress(server), "127.0.0.1")
        XCTAssertNotEqual(fcntl(server, F_GETFL) & O_NONBLOCK, 0, "accepted sockets are non-blocking")
    }

    /// A port held by a listener that shares it (`SO_REUSEPORT`) is still not free for a
    /// socket that does not: how a second server finds out it is not alone.
    func testPortInUseIsDetectedEvenWhenShared() throws {
        let shared = try Socket.listen(host: "127.0.0.1", port: 0, reusePort: true)
        let port = try Socket.localPort(shared)
        XCTAssertThrowsError(try Socket.checkPortIsFree(host: "127.0.0.1", port: port)) { error in
            XCTAssertEqual((error as? SystemError)?.errno, EADDRINUSE)
        }
        let joined = try Socket.listen(host: "127.0.0.1", port: port, reusePort: true)
        close(joined)
        close(shared)
        XCTAssertNoThrow(try Socket.checkPortIsFree(host: "127.0.0.1", port: port))
    }
}
