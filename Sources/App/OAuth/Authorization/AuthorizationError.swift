/// An error of the authorization endpoint that is sent back to the client (RFC 6749
/// §4.1.2.1): only once the client and its redirect URI are known to be genuine, as a redirect
/// carrying `error`, `error_description`, `state` and `iss` (RFC 9207). Earlier errors are a
/// page of TIL's, never a redirect (`AuthorizationClient`).
struct AuthorizationError: Error, Sendable, Equatable {
    let code: String
    let description: String

    static func invalidRequest(_ description: String) -> Self { .init(code: "invalid_request", description: description) }
    static func invalidScope(_ description: String) -> Self { .init(code: "invalid_scope", description: description) }
    static func invalidTarget(_ description: String) -> Self { .init(code: "invalid_target", description: description) }
    static func unsupportedResponseType(_ description: String) -> Self {
        .init(code: "unsupported_response_type", description: description)
    }
    static func unauthorizedClient(_ description: String) -> Self { .init(code: "unauthorized_client", description: description) }
    static let requestNotSupported = Self(code: "request_not_supported", description: "Request objects are not supported.")
    static let requestURINotSupported = Self(code: "request_uri_not_supported", description: "request_uri is not supported.")
    static let accessDenied = Self(code: "access_denied", description: "The user denied the request.")
    static let loginRequired = Self(code: "login_required", description: "The user is not signed in (prompt=none).")
    static let consentRequired = Self(code: "consent_required", description: "The user has not approved these scopes (prompt=none).")
}
