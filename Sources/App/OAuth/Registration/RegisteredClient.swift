import Foundation
import JOSE
import Web

/// The answer to a registration (RFC 7591 §3.2.1): every registered field echoed, the
/// `client_id`, and for a confidential client its secret, shown this once, which never
/// expires (`client_secret_expires_at: 0`). The synthesized encoding leaves out the secret's
/// two fields for a public client (nil optionals are omitted).
struct RegisteredClient: Encodable, Sendable {
    let clientID: String
    let clientIDIssuedAt: Int
    let clientSecret: String?
    let clientSecretExpiresAt: Int?
    let clientName: String
    let redirectURIs: [String]
    let postLogoutRedirectURIs: [String]
    let tokenEndpointAuthMethod: String
    let grantTypes: [String]
    let responseTypes: [String]
    let scope: String
    let idTokenSignedResponseAlg: String

    init(_ registered: ClientRepository.Registered) {
        let client = registered.client
        clientID = client.id
        clientIDIssuedAt = Int(registered.createdAt.timeIntervalSince1970)
        clientSecret = registered.secret?.value
        clientSecretExpiresAt = registered.secret == nil ? nil : 0
        clientName = client.name
        redirectURIs = client.redirectURIs
        postLogoutRedirectURIs = client.postLogoutRedirectURIs
        tokenEndpointAuthMethod = client.authMethod.rawValue
        grantTypes = client.grantTypes.map(\.rawValue)
        responseTypes = client.grantTypes.contains(.authorizationCode) ? ["code"] : []
        scope = client.scope.joined(separator: " ")
        idTokenSignedResponseAlg = client.idTokenAlgorithm.rawValue
    }

    private enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case clientIDIssuedAt = "client_id_issued_at"
        case clientSecret = "client_secret"
        case clientSecretExpiresAt = "client_secret_expires_at"
        case clientName = "client_name"
        case redirectURIs = "redirect_uris"
        case postLogoutRedirectURIs = "post_logout_redirect_uris"
        case tokenEndpointAuthMethod = "token_endpoint_auth_method"
        case grantTypes = "grant_types"
        case responseTypes = "response_types"
        case scope
        case idTokenSignedResponseAlg = "id_token_signed_response_alg"
    }
}
