import Crypt

/// A credential public key in COSE_Key form (RFC 9052 §7, RFC 9053 §2): an EC2 P-256 key for
/// ES256, an OKP Ed25519 key for EdDSA or an RSA key (RFC 8230) for RS256, turned into an
/// OpenSSL key. Its algorithm must be one TIL allows and must match the key's type and curve.
public struct COSEKey: Sendable {
    public let algorithm: COSEAlgorithm
    let key: EVPKey

    /// The COSE_Key labels (RFC 9052 §7.1, RFC 9053 §7.1–7.2, RFC 8230 §4).
    private enum Label {
        static let kty = 1, alg = 3
        static let crv = -1, x = -2, y = -3  // EC2 and OKP
        static let n = -1, e = -2  // RSA
    }

    /// The key `bytes` hold: exactly one CBOR map, nothing after it.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        let value: CBORValue
        do { value = try CBORDecoder.decode(bytes) } catch { throw .cbor(error) }
        try self.init(value)
    }

    /// The key a decoded COSE_Key map describes.
    public init(_ map: CBORValue) throws(WebAuthnError) {
        guard map.entries != nil else { throw .malformed("the COSE key is not a map") }
        guard let kty = map[Label.kty]?.int, let alg = map[Label.alg]?.int else {
            throw .malformed("the COSE key has no kty or alg")
        }
        guard let algorithm = COSEAlgorithm(rawValue: alg) else { throw .unsupportedAlgorithm(alg) }
        self.algorithm = algorithm
        do {
            switch (algorithm, kty) {
            case (.es256, 2):
                guard map[Label.crv]?.int == 1, let x = map[Label.x]?.bytes, let y = map[Label.y]?.bytes,
                    x.count == 32, y.count == 32
                else { throw WebAuthnError.malformed("an ES256 key must be P-256 with 32-byte x and y") }
                key = try PublicKeyBuilder.p256(x: x, y: y)
            case (.edDSA, 1):
                guard map[Label.crv]?.int == 6, let x = map[Label.x]?.bytes else {
                    throw WebAuthnError.malformed("an EdDSA key must be Ed25519 with x")
                }
                guard !Ed25519SmallOrder.contains(x) else { throw WebAuthnError.malformed("an Ed25519 key of small order") }
                key = try PublicKeyBuilder.ed25519(x)
            case (.rs256, 3):
                guard let n = map[Label.n]?.bytes, let e = map[Label.e]?.bytes, !e.isEmpty, e.count <= 8 else {
                    throw WebAuthnError.malformed("an RSA key needs n and e")
                }
                // RFC 8017 §3.1: e is odd and at least 3 (with e = 1 anyone can write a signature).
                guard e[e.count - 1] & 1 == 1, e.dropLast().contains(where: { $0 != 0 }) || e[e.count - 1] >= 3 else {
                    throw WebAuthnError.malformed("an RSA key's exponent must be odd and at least 3")
                }
                // RFC 8230 §4: both in the fewest octets. OpenSSL verifies nothing above 16384 bits.
                guard n.first != 0, e.first != 0, n.count <= 2048 else {
                    throw WebAuthnError.malformed("an RSA key's n and e must be minimal, n at most 16384 bits")
                }
                key = try PublicKeyBuilder.rsa(modulus: n, exponent: e)
                guard key.bits >= 2048 else { throw WebAuthnError.malformed("an RSA key needs at least 2048 bits") }
            default:
                throw WebAuthnError.malformed("COSE kty \(kty) does not carry alg \(alg)")
            }
        } catch let error as WebAuthnError {
            throw error
        } catch {
            throw .malformed("OpenSSL refused the \(algorithm) public key")
        }
    }

    /// True when `signature` is this key's over `message` (ES256 signatures are DER already).
    public func verify(_ signature: [UInt8], over message: [UInt8]) -> Bool {
        key.verify(signature, over: message, digest: algorithm == .edDSA ? .none : .sha256)
    }
}
