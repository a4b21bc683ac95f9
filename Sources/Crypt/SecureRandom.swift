import COpenSSL
public import FoundationEssentials

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

    /// A random (version 4) UUID from OpenSSL's CSPRNG. Foundation's `UUID()` on Linux opens
    /// and reads `/dev/urandom` on every call: two system calls and a file descriptor per id,
    /// 4 % of the server's CPU on a create (perf, issue 22); this is a user-space draw.
    public static func uuid() -> UUID {
        let b = bytes(count: 16)
        return UUID(uuid: (
            b[0], b[1], b[2], b[3], b[4], b[5], b[6] & 0x0F | 0x40, b[7],
            b[8] & 0x3F | 0x80, b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
}
