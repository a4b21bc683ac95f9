import Foundation
import Sockets
import Web

/// The proxies whose `X-Forwarded-For` TIL believes (`TRUSTED_PROXIES=127.0.0.1,10.0.0.0/8,::1`).
///
/// The client address used for throttling and audit is the socket peer, unless that peer is a
/// trusted proxy: then it is the right-most `X-Forwarded-For` entry that is not itself trusted.
/// Entries to its left were written by the client and prove nothing.
public struct TrustedProxies: Sendable {
    private var networks: [IPNetwork] = []

    public init() {}

    /// Comma- or space-separated addresses and CIDR blocks; an unparsable entry is an error.
    public init(parsing text: String) throws {
        for entry in text.split(whereSeparator: { $0 == "," || $0 == " " }) {
            guard let network = IPNetwork(String(entry)) else {
                throw ConfigurationError("TRUSTED_PROXIES: '\(entry)' is not an IP address or CIDR block.")
            }
            networks.append(network)
        }
    }

    public var isEmpty: Bool { networks.isEmpty }

    func trusts(_ address: String) -> Bool {
        guard let bytes = IPAddress(address)?.bytes else { return false }
        return networks.contains { $0.contains(bytes) }
    }

    /// The address that throttling counts and the audit log names for `request`.
    func clientAddress(of request: Request) -> String {
        let peer = request.remoteAddress ?? "unknown"
        guard !networks.isEmpty, trusts(peer) else { return peer }
        let hops = request.headers.values(for: "X-Forwarded-For")
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in hops.reversed() {
            guard let address = IPAddress(hop) else { return peer }  // garbage: trust nothing left of it
            if !networks.contains(where: { $0.contains(address.bytes) }) { return address.description }
        }
        return peer
    }
}

/// An IPv4 or IPv6 block (`10.0.0.0/8`, `::1`), compared on raw bytes. IPv4-mapped IPv6
/// addresses count as IPv4, so `::ffff:127.0.0.1` matches `127.0.0.1`.
struct IPNetwork: Sendable {
    let prefix: [UInt8]
    let bits: Int

    init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
        guard let first = parts.first, let bytes = IPAddress(first)?.bytes else { return nil }
        let width = bytes.count * 8
        if parts.count == 2 {
            guard let bits = Int(parts[1]), (0...width).contains(bits) else { return nil }
            self.bits = bits
        } else {
            bits = width
        }
        prefix = bytes
    }

    func contains(_ address: [UInt8]) -> Bool {
        guard address.count == prefix.count else { return false }
        var remaining = bits
        for (a, b) in zip(address, prefix) where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            if a & mask != b & mask { return false }
            remaining -= 8
        }
        return true
    }
}
