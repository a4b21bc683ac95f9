import COpenSSL

/// Randomness for secrets (salts, tokens) from OpenSSL's CSPRNG, which the kernel seeds.
public enum SecureRandom {
    /// `count` random bytes.
    ///
    /// Stops the process if OpenSSL's CSPRNG fails (it cannot be seeded, or is in an error
    /// state): handing out predictable salts or tokens would be worse than stopping, and
    /// callers could do nothing better with an error.
    public static func bytes(count: Int) -> [UInt8] {
        precondition(count >= 0, "negative byte count")
        var bytes = [UInt8](repeating: 0, count: count)
        let status = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
        guard status == 1 else { fatalError("OpenSSL RAND_bytes failed: CSPRNG unavailable") }
        return bytes
    }

    /// A bearer token: 32 random bytes (256 bits) as unpadded base64url, 43 characters that
    /// need no escaping in headers or URLs.
    public static func token() -> String {
        Base64URL.encode(bytes(count: 32))
    }
}
