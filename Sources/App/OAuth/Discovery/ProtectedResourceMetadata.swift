import Web

/// TIL's API described as an OAuth protected resource (RFC 9728 §2): which authorization
/// server issues its tokens and what they may carry. A client that met a 401 follows the
/// challenge's `resource_metadata` here, then the issuer's metadata, and can get a token
/// knowing nothing of TIL (the MCP authorization flow).
struct ProtectedResourceMetadata: Content {
    let resource: String
    let authorizationServers: [String]
    let scopesSupported = OAuthScopeCatalog.tilScopes.map(\.rawValue)
    /// RFC 6750 §2.1 only: never a query parameter or a form field.
    let bearerMethodsSupported = ["header"]
    let resourceDocumentation: String

    init(issuer: Issuer) {
        resource = issuer.apiResource
        authorizationServers = [issuer.url]
        resourceDocumentation = issuer.endpoint("/openapi.json")
    }

    private enum CodingKeys: String, CodingKey {
        case resource
        case authorizationServers = "authorization_servers"
        case scopesSupported = "scopes_supported"
        case bearerMethodsSupported = "bearer_methods_supported"
        case resourceDocumentation = "resource_documentation"
    }
}
