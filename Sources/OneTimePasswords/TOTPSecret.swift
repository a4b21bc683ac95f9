import Crypt

/// A new TOTP shared secret: 160 bits (RFC 4226 §4 recommends the HMAC-SHA-1 output length)
/// from OpenSSL's CSPRNG.
public enum TOTPSecret {
    /// The secret length in bytes.
    public static let byteCount = 20

    public static func generate() -> [UInt8] {
        SecureRandom.bytes(count: byteCount)
    }
}
