import Web

/// An error of an OAuth endpoint, answered in RFC 6749 §5.2's shape
/// (`{"error": "invalid_grant", "error_description": "…"}`), not TIL's `{"error": true, "reason"}`:
/// standard clients read `error` as a code. Thrown by the endpoints; `OAuthErrorMiddleware`
/// writes it.
struct OAuthError: Error, Sendable, Equatable {
    let status: HTTPStatus
    /// The registered code: `invalid_request`, `invalid_client`, `invalid_grant`...
    let code: String
    let description: String
    var headers: HTTPHeaders = [:]

    static func invalidRequest(_ description: String) -> OAuthError {
        OAuthError(status: .badRequest, code: "invalid_request", description: description)
    }

    /// Client authentication failed (RFC 6749 §5.2): 401, with a Basic challenge when the
    /// client tried the `Authorization` header.
    static func invalidClient(_ description: String, usedHeader: Bool) -> OAuthError {
        OAuthError(
            status: .unauthorized, code: "invalid_client", description: description,
            headers: usedHeader ? ["WWW-Authenticate": #"Basic realm="TIL""#] : [:])
    }

    static func invalidGrant(_ description: String) -> OAuthError {
        OAuthError(status: .badRequest, code: "invalid_grant", description: description)
    }

    static func unauthorizedClient(_ description: String) -> OAuthError {
        OAuthError(status: .badRequest, code: "unauthorized_client", description: description)
    }

    static func unsupportedGrantType(_ description: String) -> OAuthError {
        OAuthError(status: .badRequest, code: "unsupported_grant_type", description: description)
    }

    static func invalidScope(_ description: String) -> OAuthError {
        OAuthError(status: .badRequest, code: "invalid_scope", description: description)
    }

    /// RFC 8707 §2: a `resource` TIL issues no tokens for.
    static func invalidTarget(_ description: String) -> OAuthError {
        OAuthError(status: .badRequest, code: "invalid_target", description: description)
    }

    /// RFC 7591 §3.2.2.
    static func invalidRedirectURI(_ description: String) -> OAuthError {
        OAuthError(status: .badRequest, code: "invalid_redirect_uri", description: description)
    }

    /// RFC 7591 §3.2.2.
    static func invalidClientMetadata(_ description: String) -> OAuthError {
        OAuthError(status: .badRequest, code: "invalid_client_metadata", description: description)
    }

    /// Too many failures or registrations from one place: 429 with `Retry-After`.
    static func throttled(_ what: String, retryAfter seconds: Double) -> OAuthError {
        let whole = max(1, Int(seconds.rounded(.up)))
        return OAuthError(
            status: .tooManyRequests, code: "temporarily_unavailable", description: "Too many \(what); try again in \(whole) seconds.",
            headers: ["Retry-After": "\(whole)"])
    }

    /// The JSON answer, never stored by a cache (RFC 6749 §5.1, §5.2).
    var response: Response {
        var response = (try? Response.json(Body(error: code, errorDescription: description)))
            ?? Response(status: status, text: code)
        response.status = status
        for field in headers { response.headers.replaceOrAdd(name: field.name, value: field.value) }
        return response.notStored()
    }

    private struct Body: Encodable {
        let error: String
        let errorDescription: String

        private enum CodingKeys: String, CodingKey {
            case error
            case errorDescription = "error_description"
        }
    }
}
