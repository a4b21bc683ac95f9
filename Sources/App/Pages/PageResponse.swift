import Web

/// Every HTML answer TIL gives, with the headers that keep a page to itself: its CSP, no
/// framing (`X-Frame-Options: DENY` for browsers older than `frame-ancestors`), never stored
/// (a page may hold a CSRF token or a username), no `Referer` to carry a code or a `state`
/// elsewhere, and no content sniffing.
struct PageResponse: Sendable {
    var status: HTTPStatus = .ok
    var html: HTML
    var policy = ContentSecurityPolicy()
    /// `Set-Cookie`, `Retry-After` and the like.
    var headers: HTTPHeaders = [:]

    static let securityHeaders: HTTPHeaders = [
        "X-Frame-Options": "DENY",
        "Cache-Control": "no-store",
        "Referrer-Policy": "no-referrer",
        "X-Content-Type-Options": "nosniff",
    ]

    var response: Response {
        var all = headers
        all.replaceOrAdd(name: "Content-Type", value: "text/html; charset=utf-8")
        all.replaceOrAdd(name: "Content-Security-Policy", value: policy.headerValue)
        for (name, value) in Self.securityHeaders { all.replaceOrAdd(name: name, value: value) }
        return Response(status: status, headers: all, body: Array(html.markup.utf8))
    }

    /// A 303 See Other to `location` (a client's redirect URI, or a page of TIL's), with the
    /// page headers: a redirect answer may set cookies, and must not be stored either.
    static func redirect(to location: String, headers: HTTPHeaders = [:]) -> Response {
        var all = headers
        all.replaceOrAdd(name: "Location", value: location)
        for (name, value) in securityHeaders { all.replaceOrAdd(name: name, value: value) }
        return Response(status: .seeOther, headers: all, body: [])
    }
}

extension PageResponse: ResponseEncodable {
    func encodeResponse(for request: Request) throws -> Response { response }
}
