/// The metadata of a registration request (RFC 7591 §2), as sent: every field optional, any
/// other field ignored (§2: MCP clients send `client_uri`, `logo_uri`, `software_id`...).
/// `ClientDraft` decides what it means.
struct ClientMetadata: Decodable, Sendable {
    var redirectURIs: [String]?
    var clientName: String?
    var tokenEndpointAuthMethod: String?
    var grantTypes: [String]?
    var responseTypes: [String]?
    var scope: String?
    var postLogoutRedirectURIs: [String]?
    var idTokenSignedResponseAlg: String?

    private enum CodingKeys: String, CodingKey {
        case redirectURIs = "redirect_uris"
        case clientName = "client_name"
        case tokenEndpointAuthMethod = "token_endpoint_auth_method"
        case grantTypes = "grant_types"
        case responseTypes = "response_types"
        case scope
        case postLogoutRedirectURIs = "post_logout_redirect_uris"
        case idTokenSignedResponseAlg = "id_token_signed_response_alg"
    }
}
