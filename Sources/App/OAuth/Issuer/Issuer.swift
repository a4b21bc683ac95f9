/// The authorization server's public base URL (RFC 8414 §2 `issuer`): every endpoint in the
/// discovery document, the `iss` of every authorization response (RFC 9207) and TIL's own
/// resource (`ISSUER/api`, RFC 8707) derive from it.
///
/// Written as a client would reach it: `https://til.example` or `https://example.com/til`;
/// never a trailing slash, a query, a fragment or user information, since RFC 8414 compares
/// issuers by exact string and a client must be able to rebuild the discovery URL from it.
public struct Issuer: Sendable, Equatable, CustomStringConvertible {
    /// The URL exactly as clients see it.
    public let url: String
    /// The host, without port or brackets' contents changed: `til.example`, `[::1]`.
    public let host: String
    public let isHTTPS: Bool

    /// The longest issuer accepted: it is repeated in every discovery field.
    static let maxLength = 512

    /// Parses `text`; throws the reason in words when it is no issuer.
    public init(parsing text: String) throws(Refusal) {
        guard text.utf8.count <= Self.maxLength else { throw Refusal("longer than \(Self.maxLength) bytes") }
        guard text.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }) else {
            throw Refusal("only printable ASCII without spaces is allowed (write a Unicode host in punycode)")
        }
        let https = text.hasPrefix("https://")
        guard https || text.hasPrefix("http://") else { throw Refusal("it must start with https:// (or http:// on loopback)") }
        let rest = text.dropFirst(https ? 8 : 7)
        for (character, name) in [("?", "a query"), ("#", "a fragment"), ("@", "user information"), ("*", "a wildcard")]
        where rest.contains(character) {
            throw Refusal("it must not contain \(name)")
        }
        guard !text.hasSuffix("/") else { throw Refusal("it must not end with a slash") }
        let authority = rest.prefix { $0 != "/" }
        let host = Self.host(of: authority)
        guard !host.isEmpty else { throw Refusal("it has no host") }
        url = text
        self.host = host.lowercased()
        isHTTPS = https
    }

    /// The issuer of a server on `host:port` (https under TLS), or nil when `host` is not a
    /// loopback address: an issuer is never derived from `0.0.0.0` or any address others reach
    /// the server by, since only the operator knows the public name.
    public static func served(host: String, port: Int, tls: Bool) -> Issuer? {
        guard isLoopback(host) else { return nil }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return try? Issuer(parsing: "\(tls ? "https" : "http")://\(bracketed):\(port)")
    }

    /// True when only this machine can reach the issuer's host.
    public var isLoopback: Bool { Self.isLoopback(host) }

    /// `url` + `path`: `endpoint("/oauth/token")`.
    public func endpoint(_ path: String) -> String { url + path }

    /// TIL's own API as an RFC 8707 resource: tokens without `resource` are for it.
    public var apiResource: String { endpoint("/api") }

    public var description: String { url }

    /// `127.0.0.0/8`, `::1` or `localhost`, bracketed or not.
    static func isLoopback(_ host: String) -> Bool {
        AppConfiguration.isLoopback(host)
    }

    /// The host part of `authority` (`[::1]:8080` → `[::1]`, `til.example:443` → `til.example`).
    private static func host(of authority: Substring) -> String {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return "" }
            return String(authority[...close])
        }
        return String(authority.prefix { $0 != ":" })
    }

    /// Why a text is no issuer, in words that follow "ISSUER must be …: ".
    public struct Refusal: Error, CustomStringConvertible, Sendable {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
