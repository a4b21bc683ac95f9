/// Whether a redirect URI sent in a request is one the client registered.
///
/// OAuth 2.1 and RFC 9700 §4.1.3 ask for exact string comparison, with one exception: a
/// native app's loopback redirect (RFC 8252 §7.3) gets a port from the operating system at
/// run time, so for `http://127.0.0.1`, `http://[::1]` and `http://localhost` any port
/// matches, while scheme, host, path and query must still match exactly.
enum RedirectURIMatch {
    static func isRegistered(_ sent: String, in registered: [String]) -> Bool {
        if registered.contains(sent) { return true }
        guard let sentParts = LoopbackURI(sent) else { return false }
        return registered.contains { LoopbackURI($0)?.withoutPort == sentParts.withoutPort }
    }
}

/// An `http` URI to a loopback host, split around its port.
struct LoopbackURI: Equatable {
    static let hosts = ["127.0.0.1", "[::1]", "localhost"]

    /// The URI with its port removed: `http://127.0.0.1/callback?x=1`.
    let withoutPort: String

    init?(_ uri: String) {
        let prefix = "http://"
        guard uri.hasPrefix(prefix) else { return nil }
        let rest = uri.dropFirst(prefix.count)
        guard let host = Self.hosts.first(where: { rest.hasPrefix($0) }) else { return nil }
        var tail = rest.dropFirst(host.count)
        if tail.first == ":" {
            let digits = tail.dropFirst().prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 5 else { return nil }
            tail = tail.dropFirst(1 + digits.count)
        }
        guard tail.isEmpty || tail.first == "/" || tail.first == "?" else { return nil }
        withoutPort = prefix + host + tail
    }
}
