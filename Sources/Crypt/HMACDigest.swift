import COpenSSL

/// HMAC (RFC 2104) through OpenSSL's one-shot `HMAC`, which OpenSSL 3 does not deprecate
/// (unlike `HMAC_CTX`): SHA-256 for HKDF, SHA-1 for HOTP/TOTP (RFC 4226).
public enum HMACDigest {
    /// HMAC-SHA-256 of `message` under `key` (32 bytes).
    public static func sha256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        compute(EVP_sha256(), length: 32, key: key, message: message)
    }

    /// HMAC-SHA-1 of `message` under `key` (20 bytes).
    public static func sha1(key: [UInt8], message: [UInt8]) -> [UInt8] {
        compute(EVP_sha1(), length: 20, key: key, message: message)
    }

    private static func compute(_ digest: OpaquePointer?, length: Int, key: [UInt8], message: [UInt8]) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: length)
        var written: UInt32 = 0
        let result = HMAC(digest, key, Int32(key.count), message, message.count, &mac, &written)
        // Fails only if OpenSSL cannot allocate: there is nothing sensible to return instead.
        guard result != nil, written == length else { fatalError("OpenSSL HMAC failed") }
        return mac
    }
}
