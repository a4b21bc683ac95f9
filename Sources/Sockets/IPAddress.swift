import Glibc

/// An IP address as raw bytes — 4 for IPv4, 16 for IPv6 — with one rule everywhere: an
/// IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, an IPv4 client on a dual-stack socket) *is*
/// the IPv4 address, so a peer, a trusted-proxy entry and a forwarded address compare alike.
public struct IPAddress: Sendable, Equatable, CustomStringConvertible {
    public let bytes: [UInt8]

    /// From text (`127.0.0.1`, `::1`); nil for anything that is not an address.
    public init?(_ text: String) {
        guard text.utf8.count <= 64 else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self.init(raw: withUnsafeBytes(of: &v4) { Array($0) })
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        self.init(raw: withUnsafeBytes(of: &v6) { Array($0) })
    }

    /// From the bytes of an `in_addr` or `in6_addr`.
    init(raw: [UInt8]) {
        let isMapped = raw.count == 16 && raw[0..<10].allSatisfy { $0 == 0 } && raw[10] == 0xFF && raw[11] == 0xFF
        bytes = isMapped ? Array(raw[12...]) : raw
    }

    /// The canonical text (`inet_ntop`).
    public var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        _ = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
