/// HKDF-SHA256 (RFC 5869) over `HMACDigest`:
/// turns one master secret into independent keys, one per `info` label.
public enum HKDF {
    /// `length` bytes (at most 255 × 32) derived from `secret`, `salt` and `info`.
    public static func sha256(secret: [UInt8], salt: [UInt8], info: [UInt8], length: Int) -> [UInt8] {
        precondition((1...255 * 32).contains(length), "HKDF-SHA256 output length out of range")
        // RFC 5869 §2.2: an absent salt is a string of HashLen zeros.
        let pseudoRandomKey = HMACDigest.sha256(key: salt.isEmpty ? Array(repeating: 0, count: 32) : salt, message: secret)
        var output: [UInt8] = []
        var block: [UInt8] = []
        var counter: UInt8 = 1
        while output.count < length {
            block = HMACDigest.sha256(key: pseudoRandomKey, message: block + info + [counter])
            output += block
            counter &+= 1
        }
        return Array(output.prefix(length))
    }
}
