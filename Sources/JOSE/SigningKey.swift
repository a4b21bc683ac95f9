import Crypt
public import FoundationEssentials

/// A private signing key (RSA 2048 or P-256) with its kid and public JWK. Signs compact JWS
/// (RFC 7515 §7.1); its private half leaves it only as DER, for encrypted storage.
public struct SigningKey: Sendable {
    public let kid: String
    public let algorithm: JWSAlgorithm
    public var publicJWK: JWK
    private let key: EVPKey

    private init(key: EVPKey, algorithm: JWSAlgorithm, kid: String?) throws(JOSEError) {
        self.key = key
        self.algorithm = algorithm
        publicJWK = try JWK.publicJWK(of: key, algorithm: algorithm, kid: kid)
        self.kid = publicJWK.kid!
    }

    /// A new key whose kid is its RFC 7638 thumbprint.
    public static func generate(_ algorithm: JWSAlgorithm) throws -> SigningKey {
        try SigningKey(key: EVPKey.generate(for: algorithm), algorithm: algorithm, kid: nil)
    }

    /// A new key with the given kid.
    public static func generate(_ algorithm: JWSAlgorithm, kid: String) throws -> SigningKey {
        try SigningKey(key: EVPKey.generate(for: algorithm), algorithm: algorithm, kid: kid)
    }

    /// The key `privateDER()` wrote; refused unless it is an RSA ≥ 2048 (RS256) or P-256 (ES256) key.
    public init(privateDER: [UInt8], algorithm: JWSAlgorithm, kid: String) throws {
        try self.init(key: EVPKey.fromPrivateDER(privateDER, algorithm: algorithm), algorithm: algorithm, kid: kid)
    }

    /// The private key as DER (PKCS #1 or SEC 1), to be encrypted before it is stored.
    public func privateDER() throws -> [UInt8] {
        do { return try key.privateDER() } catch { throw JOSEError(error) }
    }

    /// The compact JWS of `payload`. `header` is the protected header's JSON, used as given;
    /// nil means `{"alg":…,"kid":…,"typ":"JWT"}`.
    public func sign(header: Data? = nil, payload: Data) throws -> String {
        let headerBytes = header.map(Array.init) ?? Array(#"{"alg":"\#(algorithm.rawValue)","kid":"\#(kid)","typ":"JWT"}"#.utf8)
        let signingInput = Base64URL.encode(headerBytes) + "." + Base64URL.encode(Array(payload))
        var signature: [UInt8]
        do { signature = try key.signSHA256(Array(signingInput.utf8)) } catch { throw JOSEError(error) }
        if algorithm == .es256 { signature = try ECDSASignature.raw(fromDER: signature) }
        return signingInput + "." + Base64URL.encode(signature)
    }
}
