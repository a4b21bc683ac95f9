import JOSE
import Web

/// A client registered with TIL's authorization server (RFC 7591 metadata, as stored).
/// The secret never appears here: a confidential client's secret lives only as a digest in
/// `oauth_clients.secret_digest`, checked by the client authentication.
struct OAuthClient: Sendable, Equatable {
    /// How the client proves itself at the token endpoint (RFC 7591 §2).
    enum AuthMethod: String, Sendable, CaseIterable {
        /// A public client (a native or browser app): it holds no secret.
        case none
        case clientSecretBasic = "client_secret_basic"
        case clientSecretPost = "client_secret_post"
    }

    /// The grants a client may use at the token endpoint.
    enum GrantType: String, Sendable, CaseIterable {
        case authorizationCode = "authorization_code"
        case refreshToken = "refresh_token"
        case clientCredentials = "client_credentials"
        /// RFC 8628: a device without a browser polls while the user approves elsewhere.
        case deviceCode = "urn:ietf:params:oauth:grant-type:device_code"
    }

    /// The public `client_id`.
    let id: String
    let name: String
    let authMethod: AuthMethod
    /// Compared by exact string, except for loopback ports (`RedirectURIMatch`).
    let redirectURIs: [String]
    let postLogoutRedirectURIs: [String]
    let grantTypes: [GrantType]
    /// The most this client may ever be granted, as names (resource scopes included).
    let scope: [String]
    /// A first-party app: no consent page.
    let trusted: Bool
    /// How its ID tokens are signed (`id_token_signed_response_alg`, OpenID Connect
    /// Registration §2): RS256 unless it registered ES256.
    var idTokenAlgorithm: JWSAlgorithm = .rs256

    var isPublic: Bool { authMethod == .none }

    /// Whether a grant of `scopes` to this client holds a refresh token it may redeem: it
    /// registered the `refresh_token` grant, or `offline_access` was granted (OpenID Connect
    /// Core §11: that refresh token is the client's whatever its `grant_types` say).
    func refreshes(_ scopes: [String]) -> Bool {
        grantTypes.contains(.refreshToken) || scopes.contains(OpenIDScope.offlineAccess.rawValue)
    }
}
