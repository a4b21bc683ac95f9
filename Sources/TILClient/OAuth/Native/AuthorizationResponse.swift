import Foundation

/// The answer a browser brought back to the redirect URI (RFC 6749 §4.1.2), checked before
/// anything in it is used: it went to this sign-in's redirect URI, it repeats the sign-in's
/// `state` (else it may be forged: CSRF), it comes from the expected issuer (RFC 9207, against
/// mix-up), each parameter appears once, and it holds a code — or the server's error.
enum AuthorizationResponse {
    /// The longest callback URL read (TIL's codes and states are a few dozen bytes each).
    static let maxLength = 16_384

    /// The authorization code in `callback`; throws `TILError.signInFailed` otherwise.
    static func code(in callback: URL, for signIn: BrowserSignIn) throws -> String {
        let text = callback.absoluteString
        guard text.utf8.count <= maxLength else { throw invalid("The callback URL is longer than \(maxLength) bytes.") }
        guard sameEndpoint(callback, signIn.redirectURI) else {
            throw invalid("The callback went to \(withoutQuery(callback)), not this sign-in's redirect URI \(withoutQuery(signIn.redirectURI)).")
        }
        let parameters = try pairs(of: callback.query ?? "")
        guard let state = parameters["state"], constantTimeEqual(state, signIn.state) else {
            throw invalid("The callback's state is not this sign-in's: it answers another request, or it was forged.")
        }
        switch parameters["iss"] {
        case let issuer? where issuer != signIn.issuer:
            throw invalid("The callback comes from the issuer \(issuer), not \(signIn.issuer) (RFC 9207).")
        case nil where signIn.issuerRequired:
            throw invalid("The callback names no issuer, which \(signIn.issuer) always sends (RFC 9207).")
        default:
            break
        }
        if let error = parameters["error"] {
            throw TILError.signInFailed(error: error, reason: parameters["error_description"] ?? "The server refused the sign-in.")
        }
        guard let code = parameters["code"], !code.isEmpty else { throw invalid("The callback carries no code.") }
        return code
    }

    /// The query's parameters, decoded (`+` is a space); a name sent twice is refused.
    private static func pairs(of query: String) throws -> [String: String] {
        var result: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (part: Substring) in part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let name = decode(parts[0]), let value = decode(parts.count > 1 ? parts[1] : "") else {
                throw invalid("The callback's query is not percent-encoded text.")
            }
            guard result[name] == nil else { throw invalid("The callback carries '\(name)' more than once.") }
            result[name] = value
        }
        return result
    }

    /// Scheme, host, port and path alike: a loopback port or an app's own scheme included.
    private static func sameEndpoint(_ one: URL, _ other: URL) -> Bool {
        one.scheme?.lowercased() == other.scheme?.lowercased() && one.host?.lowercased() == other.host?.lowercased()
            && one.port == other.port && one.path == other.path
    }

    private static func withoutQuery(_ url: URL) -> String {
        String(url.absoluteString.prefix { $0 != "?" })
    }

    /// Whether two strings are equal, taking the same time wherever they differ.
    static func constantTimeEqual(_ one: String, _ other: String) -> Bool {
        let (a, b) = (Array(one.utf8), Array(other.utf8))
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private static func invalid(_ reason: String) -> TILError {
        .signInFailed(error: "invalid_callback", reason: reason)
    }
}
