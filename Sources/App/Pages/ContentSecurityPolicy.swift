/// The `Content-Security-Policy` of every page: nothing loads but TIL's stylesheet, nothing
/// runs but TIL's one script file where a page loads it, no one frames it, and forms post
/// only to TIL, plus, where a page's form leads on to a client (login or consent ending in a
/// 303 to its redirect URI), that client's origin: browsers apply `form-action` to the
/// redirects after a form's submission too.
struct ContentSecurityPolicy: Sendable, Equatable {
    /// Extra `form-action` sources, each an origin (`https://app.example`) or a scheme
    /// (`com.example.til:`).
    var formTargets: [String] = []
    /// True on the pages that load `PasskeysScript` (TIL's own file, never inline): it may run
    /// and call TIL's page endpoints, and nothing else may.
    var runsScript = false

    var headerValue: String {
        let targets = (["'self'"] + formTargets).joined(separator: " ")
        let script = runsScript ? "script-src 'self'; connect-src 'self'; " : ""
        return "default-src 'none'; \(script)style-src 'self'; form-action \(targets); frame-ancestors 'none'; base-uri 'none'"
    }

    /// The source that lets a form's redirect reach `uri`: its origin for http and https, its
    /// scheme for a private-use one (RFC 8252 §7.1). Nil for anything that could not be a
    /// source expression (a space or `;` would add a directive of its own).
    static func source(of uri: String) -> String? {
        guard let colon = uri.firstIndex(of: ":") else { return nil }
        let scheme = uri[..<colon].lowercased()
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        guard scheme == "http" || scheme == "https" else { return scheme + ":" }
        let rest = uri[uri.index(after: colon)...]
        guard rest.hasPrefix("//") else { return nil }
        let authority = rest.dropFirst(2).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty, !authority.contains("@"),
              authority.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.:[]".contains($0)) })
        else { return nil }
        return "\(scheme)://\(authority)"
    }
}
