import COpenSSL

/// HKDF-SHA256 (RFC 5869) over OpenSSL's one-shot `HMAC` (not deprecated, unlike `HMAC_CTX`):
/// turns one master secret into independent keys, one per `info` label.
public enum HKDF {
    /// `length` bytes (at most 255 × 32) derived from `secret`, `salt` and `info`.
    public static func sha256(secret: [UInt8], salt: [UInt8], info: [UInt8], length: Int) -> [UInt8] {
        precondition((1...255 * 32).contains(length), "HKDF-SHA256 output length out of range")
        // RFC 5869 §2.2: an absent salt is a string of HashLen zeros.
        let pseudoRandomKey = hmac(key: salt.isEmpty ? Array(repeating: 0, count: 32) : salt, message: secret)
        var output: [UInt8] = []
        var block: [UInt8] = []
        var counter: UInt8 = 1
        while output.count < length {
            block = hmac(key: pseudoRandomKey, message: block + info + [counter])
            output += block
            counter &+= 1
        }
        return Array(output.prefix(length))
    }

    /// HMAC-SHA256 of `message` under `key`.
    static func hmac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let result = HMAC(EVP_sha256(), key, Int32(key.count), message, message.count, &mac, &length)
        // Fails only if OpenSSL cannot allocate: as with SHA-256, nothing sensible to return instead.
        guard result != nil, length == 32 else { fatalError("OpenSSL HMAC(SHA-256) failed") }
        return mac
    }
}
