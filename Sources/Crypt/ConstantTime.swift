import COpenSSL

/// Comparison of secrets whose time does not depend on where they differ.
public enum ConstantTime {
    /// Equal length and equal bytes. Only the length may leak through timing.
    public static func equals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        let a = Array(a), b = Array(b)
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { x in b.withUnsafeBytes { y in CRYPTO_memcmp(x.baseAddress, y.baseAddress, x.count) == 0 } }
    }

    public static func equals(_ a: String, _ b: String) -> Bool {
        equals(Array(a.utf8), Array(b.utf8))
    }
}
