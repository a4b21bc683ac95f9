import Crypt
public import FoundationEssentials

/// Verification of compact JWS (RFC 7515 §5.2) against a JWK set, for the tokens TIL itself
/// signed (an `id_token_hint` coming back). Strict by design: the header must name an allowed
/// algorithm (never `none`) and a `kid` of the set whose key type and `alg` agree, and must
/// not list `crit` extensions.
public enum JWS {
    /// The longest compact JWS accepted: an id_token is about a kilobyte.
    public static let maxLength = 16 * 1024

    /// The payload bytes of `compact`, or throws why it was refused.
    public static func verify(_ compact: String, keys: JWKSet, allowed: Set<JWSAlgorithm>) throws -> Data {
        guard compact.utf8.count <= maxLength else { throw JOSEError.malformed("longer than \(maxLength) bytes") }
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(String(parts[0])),
            let payload = Base64URL.decode(String(parts[1])), let signature = Base64URL.decode(String(parts[2]))
        else { throw JOSEError.malformed("not three base64url parts") }
        let header: ProtectedHeader
        do {
            header = try JSONDecoder().decode(ProtectedHeader.self, from: Data(headerBytes))
        } catch {
            throw JOSEError.malformed("the header is not a JSON object with a string alg")
        }
        guard let algorithm = JWSAlgorithm(rawValue: header.alg), allowed.contains(algorithm) else {
            throw JOSEError.algorithmNotAllowed(header.alg)
        }
        guard header.crit == nil else { throw JOSEError.unsupportedCritical }
        guard let kid = header.kid, let jwk = keys.keys.first(where: { $0.kid == kid }) else {
            throw JOSEError.unknownKey(header.kid ?? "")
        }
        let key = try jwk.publicKey(for: algorithm)
        let signingInput = Array(compact.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        let verifiable: [UInt8]
        switch algorithm {
        case .rs256: verifiable = signature
        case .es256:
            guard let der = ECDSASignature.der(fromRaw: signature) else { throw JOSEError.badSignature }
            verifiable = der
        }
        guard key.verifySHA256(verifiable, over: signingInput) else { throw JOSEError.badSignature }
        return Data(payload)
    }

    /// The header members verification reads; any others are ignored, as RFC 7515 allows.
    private struct ProtectedHeader: Decodable {
        let alg: String
        let kid: String?
        /// Present at all (whatever its value) means refused.
        let crit: IgnoredValue?
    }

    /// Any JSON value, decoded only to learn that the member is there.
    private struct IgnoredValue: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}
