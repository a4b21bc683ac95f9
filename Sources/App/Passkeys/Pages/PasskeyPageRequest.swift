import Web

/// What every page endpoint of the passkeys script checks first: the `X-CSRF-Token` header
/// carries the token of the page the script runs on, bound to the cookie that page's forms
/// are bound to (the pre-login cookie on the sign-in page, the session's on the others). A
/// cross-site page can make the browser send the cookie, but cannot read the token.
enum PasskeyPageRequest {
    static let csrfHeader = "X-CSRF-Token"

    /// The cookie's value, proven by the header's token; else 403.
    @discardableResult
    static func checkCSRF(_ request: Request, boundTo cookie: String?) throws -> String {
        guard CSRFToken.isValid(request.headers[csrfHeader], boundTo: cookie), let cookie else {
            throw Abort(.forbidden, reason: "The page's CSRF token is missing or stale: reload the page and try again.")
        }
        return cookie
    }

    /// `{"next": url}`, the script's answer after a success, with `headers` (cookies), never stored.
    static func next(_ url: String, headers: HTTPHeaders = [:]) throws -> Response {
        var response = try Response.json(["next": url]).notStored()
        for (name, value) in headers { response.headers.add(name: name, value: value) }
        return response
    }
}
