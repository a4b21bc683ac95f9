/// Why a key could not be made or read, or why a JWS was refused. A refused JWS says what was
/// wrong for the logs; callers answer a client with one generic refusal.
public enum JOSEError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not three base64url parts, too long, or a header that is not a JSON object with `alg`.
    case malformed(String)
    /// `alg` is none, unknown, or not one the caller allows.
    case algorithmNotAllowed(String)
    /// The header names a `kid` the key set does not hold (or none at all).
    case unknownKey(String)
    /// The header lists `crit` extensions, none of which TIL understands (RFC 7515 §4.1.11).
    case unsupportedCritical
    /// The signature does not match the signing input under the named key.
    case badSignature
    /// A JWK or a stored private key that is not an RSA ≥ 2048 or P-256 key.
    case invalidKey(String)
    /// OpenSSL failed where it should not (allocation): the call named.
    case openSSL(String)

    public var description: String {
        switch self {
        case .malformed(let why): "malformed JWS: \(why)"
        case .algorithmNotAllowed(let alg): "JWS algorithm not allowed: \(alg)"
        case .unknownKey(let kid): "no published key has kid '\(kid)'"
        case .unsupportedCritical: "JWS header lists critical extensions"
        case .badSignature: "JWS signature does not verify"
        case .invalidKey(let why): "invalid key: \(why)"
        case .openSSL(let call): "OpenSSL \(call) failed"
        }
    }
}
