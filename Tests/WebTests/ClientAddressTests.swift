import Sockets
import Web
import WebTesting
import XCTest

/// `request.clientAddress`: the socket peer, or what a trusted proxy forwarded, resolved once
/// by `ClientAddressMiddleware`. Live, because the peer is the socket's.
final class ClientAddressTests: XCTestCase {
    /// Each route answers the address it read: one synchronous, one that suspends, so both of
    /// the middleware's entry points are crossed.
    private func withAddressApp(trusting proxies: [String]?, _ body: (TestClient) async throws -> Void) async throws {
        try await withApp([.live], configure: { app in
            if let proxies {
                app.middleware.append(ClientAddressMiddleware(trustedProxies: proxies.compactMap(IPNetwork.init)))
            }
            app.get("now") { req in req.clientAddress }
            app.get("later") { req async in
                await Task.yield()
                return req.clientAddress
            }
        }, body)
    }

    private func address(_ client: TestClient, forwardedFor: [String] = []) async throws -> [String] {
        var headers = HTTPHeaders()
        for value in forwardedFor { headers.add(name: "X-Forwarded-For", value: value) }
        return [try await client.send(.get, "/now", headers: headers).bodyString,
                try await client.send(.get, "/later", headers: headers).bodyString]
    }

    func testWithoutTrustedProxiesTheClientIsThePeer() async throws {
        try await withAddressApp(trusting: nil) { client in
            let seen = try await address(client, forwardedFor: ["1.2.3.4"])
            XCTAssertEqual(seen, ["127.0.0.1", "127.0.0.1"])
        }
    }

    func testBehindATrustedProxyTheClientIsTheRightMostUntrustedHop() async throws {
        try await withAddressApp(trusting: ["127.0.0.1", "10.0.0.0/8", "fd00::/8"]) { client in
            // Entries left of the first untrusted hop are the client's own word.
            var seen = try await address(client, forwardedFor: ["6.6.6.6, 1.2.3.4, 10.1.2.3"])
            XCTAssertEqual(seen, ["1.2.3.4", "1.2.3.4"])
            seen = try await address(client, forwardedFor: ["6.6.6.6", "1.2.3.4"])
            XCTAssertEqual(seen, ["1.2.3.4", "1.2.3.4"], "several headers read as one list")
            seen = try await address(client, forwardedFor: ["2001:db8::1"])
            XCTAssertEqual(seen, ["2001:db8::1", "2001:db8::1"])
            seen = try await address(client, forwardedFor: ["1.2.3.4, not-an-ip"])
            XCTAssertEqual(seen, ["127.0.0.1", "127.0.0.1"], "garbage stops the walk at the peer")
            seen = try await address(client)
            XCTAssertEqual(seen, ["127.0.0.1", "127.0.0.1"])
        }
    }

    func testAnUntrustedPeersHeaderIsIgnored() async throws {
        try await withAddressApp(trusting: ["192.0.2.0/24"]) { client in
            let seen = try await address(client, forwardedFor: ["1.2.3.4"])
            XCTAssertEqual(seen, ["127.0.0.1", "127.0.0.1"])
        }
    }

    func testNetworksCompareMappedIPv4AsIPv4() throws {
        let loopback = try XCTUnwrap(IPNetwork("127.0.0.1"))
        XCTAssertTrue(loopback.contains(try XCTUnwrap(IPAddress("::ffff:127.0.0.1"))))
        let unique = try XCTUnwrap(IPNetwork("fd00::/8"))
        XCTAssertTrue(unique.contains(try XCTUnwrap(IPAddress("fd12::1"))))
        XCTAssertFalse(unique.contains(try XCTUnwrap(IPAddress("11.0.0.1"))))
        XCTAssertTrue(try XCTUnwrap(IPNetwork("10.0.0.0/8")).contains(try XCTUnwrap(IPAddress("10.255.0.1"))))
        for bad in ["10.0.0.0/33", "proxy.local", "::1/129", "1.2.3.4/x"] { XCTAssertNil(IPNetwork(bad), bad) }
    }
}
