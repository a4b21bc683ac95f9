/// A `Set-Cookie` header value (RFC 6265 §4.1) for a cookie only the server reads:
/// `HttpOnly` always, `SameSite=Lax` (sent on top-level navigations, such as a client's
/// redirect to the authorization page, but not on cross-site posts), `Path=/`, and `Secure`
/// when the site is served over https. A secure cookie's name takes the `__Host-` prefix
/// (RFC 6265bis §4.1.3.2): browsers then refuse it from a subdomain or over plain http, so
/// no neighbour can plant one.
public struct SetCookie: Sendable, Equatable {
    public let name: String
    public let value: String
    /// Seconds until the browser forgets it; 0 deletes it now.
    public let maxAge: Int
    public let secure: Bool

    /// `baseName` with the `__Host-` prefix when `secure`.
    public static func hostPrefixed(_ baseName: String, secure: Bool) -> String {
        secure ? "__Host-" + baseName : baseName
    }

    public init(name: String, value: String, maxAge: Int, secure: Bool) {
        self.name = name
        self.value = value
        self.maxAge = max(0, maxAge)
        self.secure = secure
    }

    /// The header that removes the cookie `name` from the browser.
    public static func removing(_ name: String, secure: Bool) -> SetCookie {
        SetCookie(name: name, value: "", maxAge: 0, secure: secure)
    }

    public var headerValue: String {
        "\(name)=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")
    }
}

extension HTTPHeaders {
    /// Adds a `Set-Cookie` header (one per cookie: they are never folded into one line).
    public mutating func setCookie(_ cookie: SetCookie) {
        add(name: "Set-Cookie", value: cookie.headerValue)
    }
}
