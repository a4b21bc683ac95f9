/// An IPv4 or IPv6 block (`10.0.0.0/8`, `fd00::/8`, or one address, `::1`), compared on raw
/// bytes. IPv4-mapped IPv6 addresses count as IPv4 (`IPAddress`), so `::ffff:127.0.0.1` is
/// inside `127.0.0.1`.
public struct IPNetwork: Sendable, Equatable {
    public let prefix: IPAddress
    public let bits: Int

    /// From `address` or `address/bits`; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
        guard let first = parts.first, let address = IPAddress(first) else { return nil }
        let width = address.bytes.count * 8
        if parts.count == 2 {
            guard let bits = Int(parts[1]), (0...width).contains(bits) else { return nil }
            self.bits = bits
        } else {
            bits = width
        }
        prefix = address
    }

    public func contains(_ address: IPAddress) -> Bool {
        guard address.bytes.count == prefix.bytes.count else { return false }
        var remaining = bits
        for (a, b) in zip(address.bytes, prefix.bytes) where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            if a & mask != b & mask { return false }
            remaining -= 8
        }
        return true
    }
}
