/// The signature algorithms TIL accepts for passkeys (COSE, RFC 9053 / RFC 8812): what a
/// registration's `pubKeyCredParams` offers and nothing else.
public enum COSEAlgorithm: Int, Sendable, CaseIterable, Codable {
    /// ECDSA with SHA-256 on P-256; the signature is DER (WebAuthn §6.5.5), as OpenSSL takes it.
    case es256 = -7
    /// Ed25519 (RFC 8032), the message signed whole.
    case edDSA = -8
    /// RSASSA-PKCS1-v1_5 with SHA-256 (Windows Hello's keys).
    case rs256 = -257
}
