import Glibc
import Sockets
import XCTest

/// `Socket.peerAddress`: the text form of the client's IP, as handlers see it.
final class PeerAddressTests: XCTestCase {
    func testIPv4AndIPv6LoopbackAndMappedIPv4() throws {
        XCTAssertEqual(try peerAddress(listeningOn: "127.0.0.1", connectingTo: "127.0.0.1", family: AF_INET), "127.0.0.1")
        guard let ipv6 = try? Socket.listen(host: "::1", port: 0, reusePort: false) else {
            throw XCTSkip("no IPv6 loopback on this machine")
        }
        close(ipv6)
        XCTAssertEqual(try peerAddress(listeningOn: "::1", connectingTo: "::1", family: AF_INET6), "::1")
        // A dual-stack listener sees an IPv4 client as ::ffff:127.0.0.1; shown as IPv4.
        XCTAssertEqual(try peerAddress(listeningOn: "::", connectingTo: "127.0.0.1", family: AF_INET), "127.0.0.1")
    }

    /// Listens on `host`, connects from loopback, accepts, and formats the accepted peer.
    private func peerAddress(listeningOn host: String, connectingTo target: String, family: Int32) throws -> String? {
        let listener = try Socket.listen(host: host, port: 0, reusePort: false)
        defer { close(listener) }
        let port = try Socket.localPort(listener)
        let client = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        var storage = sockaddr_storage()
        let length: Int
        if family == AF_INET6 {
            length = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    address.pointee.sin6_family = sa_family_t(AF_INET6)
                    address.pointee.sin6_port = in_port_t(UInt16(port).bigEndian)
                    inet_pton(AF_INET6, target, &address.pointee.sin6_addr)
                    return MemoryLayout<sockaddr_in6>.size
                }
            }
        } else {
            length = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    address.pointee.sin_family = sa_family_t(AF_INET)
                    address.pointee.sin_port = in_port_t(UInt16(port).bigEndian)
                    inet_pton(AF_INET, target, &address.pointee.sin_addr)
                    return MemoryLayout<sockaddr_in>.size
                }
            }
        }
        let connected = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(length)) }
        }
        XCTAssertEqual(connected, 0, "connect to \(target):\(port)")
        var accepted: Int32?
        for _ in 0..<200 where accepted == nil {
            accepted = try Socket.accept(listener)
            if accepted == nil { usleep(5_000) }
        }
        guard let server = accepted else { XCTFail("nothing to accept"); return nil }
        defer { close(server) }
        return Socket.peerAddress(server)
    }
}
