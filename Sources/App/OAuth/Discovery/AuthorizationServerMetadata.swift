import Web

/// The authorization server's metadata (RFC 8414 §2), served at
/// `/.well-known/oauth-authorization-server`: what a client that knows only the issuer needs
/// to find every endpoint and what each accepts.
struct AuthorizationServerMetadata: Content {
    let issuer: String
    let authorizationEndpoint: String
    let tokenEndpoint: String
    let registrationEndpoint: String
    let revocationEndpoint: String
    let introspectionEndpoint: String
    /// RFC 8628 §4.
    let deviceAuthorizationEndpoint: String
    let responseTypesSupported = ["code"]
    let responseModesSupported = ["query"]
    let grantTypesSupported = OAuthClient.GrantType.allCases.map(\.rawValue)
    /// Never `plain` (OAuth 2.1).
    let codeChallengeMethodsSupported = ["S256"]
    let tokenEndpointAuthMethodsSupported = OAuthClient.AuthMethod.allCases.map(\.rawValue)
    let revocationEndpointAuthMethodsSupported = OAuthClient.AuthMethod.allCases.map(\.rawValue)
    /// Introspection is for confidential clients (resource servers) only.
    let introspectionEndpointAuthMethodsSupported = [OAuthClient.AuthMethod.clientSecretBasic, .clientSecretPost].map(\.rawValue)
    let scopesSupported: [String]
    /// RFC 9207: every authorization response carries `iss`.
    let authorizationResponseIssParameterSupported = true
    let serviceDocumentation: String

    init(issuer: Issuer, scopes: OAuthScopeCatalog) {
        self.issuer = issuer.url
        authorizationEndpoint = issuer.endpoint(OAuthEndpoints.authorization)
        tokenEndpoint = issuer.endpoint(OAuthEndpoints.token)
        registrationEndpoint = issuer.endpoint(OAuthEndpoints.registration)
        revocationEndpoint = issuer.endpoint(OAuthEndpoints.revocation)
        introspectionEndpoint = issuer.endpoint(OAuthEndpoints.introspection)
        deviceAuthorizationEndpoint = issuer.endpoint(OAuthEndpoints.deviceAuthorization)
        scopesSupported = scopes.allScopes
        serviceDocumentation = issuer.endpoint("/openapi.json")
    }

    private enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case registrationEndpoint = "registration_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case introspectionEndpoint = "introspection_endpoint"
        case deviceAuthorizationEndpoint = "device_authorization_endpoint"
        case responseTypesSupported = "response_types_supported"
        case responseModesSupported = "response_modes_supported"
        case grantTypesSupported = "grant_types_supported"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        case revocationEndpointAuthMethodsSupported = "revocation_endpoint_auth_methods_supported"
        case introspectionEndpointAuthMethodsSupported = "introspection_endpoint_auth_methods_supported"
        case scopesSupported = "scopes_supported"
        case authorizationResponseIssParameterSupported = "authorization_response_iss_parameter_supported"
        case serviceDocumentation = "service_documentation"
    }
}
