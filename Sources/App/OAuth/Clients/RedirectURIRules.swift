/// Which redirect URIs a client may register (OAuth 2.1 §2.3.1, RFC 9700 §4.1, RFC 8252 §7).
///
/// - `https://host/path`: any client.
/// - `http://` only to a loopback host (`127.0.0.1`, `[::1]`, `localhost`), for native apps;
///   any port then matches at the authorization endpoint (`RedirectURIMatch`).
/// - A private-use scheme in reverse-domain form (`com.example.til:/callback`, RFC 8252 §7.1),
///   for public clients only: any app on the device could claim it, so no secret rides on it.
/// - Never a fragment, a wildcard, user information, white space or a control character;
///   at most `maxLength` bytes and `maxCount` per list.
enum RedirectURIRules {
    static let maxLength = 512
    static let maxCount = 10

    /// Why `uri` may not be registered by a client that is public or not; nil when it may.
    static func refusal(of uri: String, publicClient: Bool) -> String? {
        guard !uri.isEmpty, uri.utf8.count <= maxLength else { return "a redirect URI must be 1 to \(maxLength) bytes" }
        guard uri.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            return "'\(uri.prefix(64))' must be printable ASCII without spaces (percent-encode the rest)"
        }
        if uri.contains("#") { return "'\(uri)' has a fragment" }
        if uri.contains("*") { return "'\(uri)' has a wildcard" }
        guard let colon = uri.firstIndex(of: ":") else { return "'\(uri)' is not an absolute URI" }
        let scheme = uri[..<colon]
        guard let first = scheme.first, first.isLetter,
            scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." })
        else { return "'\(uri)' has no valid scheme" }
        let rest = uri[uri.index(after: colon)...]
        switch scheme {
        case "https":
            guard let authority = authority(of: rest), !authority.isEmpty, !authority.contains("@") else {
                return "'\(uri)' needs a host and no user information"
            }
            return nil
        case "http":
            guard let authority = authority(of: rest), !authority.contains("@"), LoopbackURI(uri) != nil else {
                return "'\(uri)': plain http is allowed only to a loopback host (127.0.0.1, [::1], localhost)"
            }
            return nil
        default:
            guard scheme.lowercased() == scheme, scheme.contains("."), !scheme.hasPrefix("."), !scheme.hasSuffix(".") else {
                return "'\(uri)': a private-use scheme must be a lower-case reverse domain name (com.example.app:/callback)"
            }
            guard publicClient else { return "'\(uri)': private-use schemes are for public clients (token_endpoint_auth_method none)" }
            guard !rest.isEmpty else { return "'\(uri)' has no path" }
            return nil
        }
    }

    /// The authority of `//authority/path`, or nil without the `//`.
    private static func authority(of rest: Substring) -> Substring? {
        guard rest.hasPrefix("//") else { return nil }
        return rest.dropFirst(2).prefix { $0 != "/" && $0 != "?" }
    }
}
