/// Where the authorization server's endpoints live, below the issuer: the discovery document
/// names them, and the controllers register them, from this one list.
enum OAuthEndpoints {
    static let authorization = "/oauth/authorize"
    static let token = "/oauth/token"
    static let registration = "/oauth/register"
    static let revocation = "/oauth/revoke"
    static let introspection = "/oauth/introspect"
    /// OpenID Connect's `jwks_uri` (RFC 7517 JWK Set of the signing keys).
    static let jwks = "/oauth/jwks"
    static let deviceAuthorization = "/oauth/device_authorization"
    /// RFC 8414 §3: the well-known path of the authorization server's metadata.
    static let authorizationServerMetadata = "/.well-known/oauth-authorization-server"
    /// RFC 9728 §3.1: the well-known path of TIL's API (`ISSUER/api`) as a protected resource.
    static let protectedResourceMetadata = "/.well-known/oauth-protected-resource/api"
}
