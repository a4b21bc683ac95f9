import COpenSSL

/// Randomness for secrets (salts, tokens) from OpenSSL's CSPRNG.
public enum SecureRandom {
    /// `count` random bytes. Traps if OpenSSL cannot produce them: continuing with weak
    /// randomness would be worse than stopping.
    public static func bytes(count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let ok = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
        precondition(ok == 1, "OpenSSL RAND_bytes failed")
        return bytes
    }

    /// A bearer token: 32 random bytes as unpadded base64url (43 characters).
    public static func token() -> String {
        Base64URL.encode(bytes(count: 32))
    }
}
