/// The two JWS algorithms TIL signs with (RFC 7518 §3.1): RS256, which OpenID Connect
/// requires every party to support, and ES256, smaller and cheaper to sign with.
public enum JWSAlgorithm: String, Sendable, Codable, CaseIterable {
    case rs256 = "RS256"
    case es256 = "ES256"

    /// The JWK key type (`kty`) that carries this algorithm's public keys.
    public var keyType: String {
        switch self {
        case .rs256: "RSA"
        case .es256: "EC"
        }
    }
}
