import Crypt
import Foundation

/// The claims of an ID token (OpenID Connect Core §2): who (`sub`, the user's id as TIL's
/// introspection names it), for whom (`aud` and `azp`, the client), by whom (`iss`), when
/// (`iat`, `exp`, `auth_time`), the request's `nonce` verbatim, the access token's `at_hash`
/// (§3.1.3.6), with `profile` the user's `name` and `preferred_username`, and with `email` the
/// verified address and `email_verified` (§5.1).
struct IDTokenClaims: Codable, Sendable, Equatable {
    let iss: String
    let sub: String
    let aud: String
    let exp: Int
    let iat: Int
    let authTime: Int
    let nonce: String?
    let atHash: String?
    let azp: String
    var name: String?
    var preferredUsername: String?
    var email: String?
    var emailVerified: Bool?

    /// Discovery's `claims_supported`.
    static let supported = ["iss", "sub", "aud", "exp", "iat", "auth_time", "nonce", "at_hash", "azp", "name", "preferred_username", "email", "email_verified"]

    /// §3.1.3.6: the base64url of the left half of the SHA-256 of the access token's ASCII
    /// (SHA-256 for both RS256 and ES256 with P-256).
    static func atHash(of accessToken: String) -> String {
        Base64URL.encode(Array(SHA256.hash(Array(accessToken.utf8)).prefix(16)))
    }

    private enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, iat, nonce, azp, name, email
        case authTime = "auth_time"
        case atHash = "at_hash"
        case preferredUsername = "preferred_username"
        case emailVerified = "email_verified"
    }
}
