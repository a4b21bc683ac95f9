import JOSE
import Web

/// The OpenID Provider's metadata (OpenID Connect Discovery 1.0 §3), served at
/// `/.well-known/openid-configuration`: every RFC 8414 field of `AuthorizationServerMetadata`
/// (encoded by it, not copied), and what an OpenID Connect relying party needs besides.
/// Request objects are not supported, and says so: an omitted `request_uri_parameter_supported`
/// would mean true.
struct OpenIDProviderMetadata: Encodable, Sendable {
    let oauth: AuthorizationServerMetadata
    let userinfoEndpoint: String
    let jwksURI: String
    let endSessionEndpoint: String
    let subjectTypesSupported = ["public"]
    let idTokenSigningAlgValuesSupported = JWSAlgorithm.allCases.map(\.rawValue)
    let claimsSupported = IDTokenClaims.supported
    let requestParameterSupported = false
    let requestURIParameterSupported = false
    let claimsParameterSupported = false

    init(issuer: Issuer, scopes: OAuthScopeCatalog) {
        oauth = AuthorizationServerMetadata(issuer: issuer, scopes: scopes)
        userinfoEndpoint = issuer.endpoint(OpenIDEndpoints.userInfo)
        jwksURI = issuer.endpoint(OpenIDEndpoints.jwks)
        endSessionEndpoint = issuer.endpoint(OpenIDEndpoints.endSession)
    }

    func encode(to encoder: any Encoder) throws {
        try oauth.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(userinfoEndpoint, forKey: .userinfoEndpoint)
        try container.encode(jwksURI, forKey: .jwksURI)
        try container.encode(endSessionEndpoint, forKey: .endSessionEndpoint)
        try container.encode(subjectTypesSupported, forKey: .subjectTypesSupported)
        try container.encode(idTokenSigningAlgValuesSupported, forKey: .idTokenSigningAlgValuesSupported)
        try container.encode(claimsSupported, forKey: .claimsSupported)
        try container.encode(requestParameterSupported, forKey: .requestParameterSupported)
        try container.encode(requestURIParameterSupported, forKey: .requestURIParameterSupported)
        try container.encode(claimsParameterSupported, forKey: .claimsParameterSupported)
    }

    private enum CodingKeys: String, CodingKey {
        case userinfoEndpoint = "userinfo_endpoint"
        case jwksURI = "jwks_uri"
        case endSessionEndpoint = "end_session_endpoint"
        case subjectTypesSupported = "subject_types_supported"
        case idTokenSigningAlgValuesSupported = "id_token_signing_alg_values_supported"
        case claimsSupported = "claims_supported"
        case requestParameterSupported = "request_parameter_supported"
        case requestURIParameterSupported = "request_uri_parameter_supported"
        case claimsParameterSupported = "claims_parameter_supported"
    }
}
