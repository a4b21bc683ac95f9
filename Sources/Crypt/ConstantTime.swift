import COpenSSL

/// Comparison of secrets (hashes, token digests) whose time does not depend on where, or
/// whether, they differ, so an attacker cannot learn a secret byte by byte from timings.
public enum ConstantTime {
    /// Equal length and equal bytes. Only the length may leak through timing; the bytes are
    /// compared by OpenSSL's `CRYPTO_memcmp`, which never exits early.
    public static func equals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        let a = Array(a), b = Array(b)
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in CRYPTO_memcmp(x.baseAddress, y.baseAddress, x.count) == 0 }
        }
    }

    /// Compares the UTF-8 bytes of two strings (no Unicode normalisation: secrets are bytes).
    public static func equals(_ a: String, _ b: String) -> Bool {
        equals(a.utf8, b.utf8)
    }
}
