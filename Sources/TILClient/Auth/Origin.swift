public import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a request goes, as far as trust is concerned (RFC 6454): scheme, host and port.
///
/// A credential records the origins it may be sent to when it is issued, and the pipeline
/// checks the request's origin against them before every send: a token never reaches a server
/// that did not issue it, whatever led the request there (`--server`, a stale store, a `Link`).
/// Written as `http://127.0.0.1:8080` (the port always shown), which is also its JSON form.
public struct Origin: Hashable, Sendable, Codable, CustomStringConvertible {
    /// `http` or `https`, lower case.
    public let scheme: String
    /// Lower case; an IPv6 address without its brackets.
    public let host: String
    /// The port, the scheme's default when the URL names none.
    public let port: Int

    /// The origin of `url`; nil unless it is an http(s) URL with a host.
    public init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), let defaultPort = Self.defaultPorts[scheme] else { return nil }
        var host = url.host?.lowercased() ?? ""
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = url.port ?? defaultPort
    }

    private static let defaultPorts = ["http": 80, "https": 443]

    public var description: String {
        "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// Whether the host is this machine: `localhost`, or a loopback address (127.0.0.0/8, ::1,
    /// or 127.x written as IPv4-mapped IPv6). Plain HTTP to it never crosses a network.
    public var isLoopback: Bool {
        if host == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, host, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
        return bytes == [UInt8](repeating: 0, count: 15) + [1] || (mapped && bytes[12] == 127)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let url = URL(string: text), let origin = Origin(url) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not an origin"))
        }
        self = origin
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
