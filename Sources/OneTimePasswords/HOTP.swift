import Crypt

/// HMAC-based one-time passwords (RFC 4226) with HMAC-SHA-1: the counter-driven core that
/// TOTP (RFC 6238) feeds with time steps.
public struct HOTP: Sendable {
    /// The shared secret (RFC 4226 asks for at least 128 bits; TIL's are 160, see `TOTPSecret`).
    public let secret: [UInt8]
    /// Code length: 6 for authenticator apps; 8 for RFC 6238's test vectors.
    public let digits: Int

    public init(secret: [UInt8], digits: Int = 6) {
        precondition((1...9).contains(digits), "HOTP codes have 1 to 9 digits")
        self.secret = secret
        self.digits = digits
    }

    /// The code for `counter`, zero-padded to `digits` ASCII digits.
    public func code(counter: UInt64) -> String {
        let value = truncatedValue(counter: counter) % Self.powersOfTen[digits]
        let text = String(value)
        return String(repeating: "0", count: digits - text.count) + text
    }

    /// RFC 4226 §5.3 dynamic truncation: 31 bits taken at the offset the last nibble names.
    func truncatedValue(counter: UInt64) -> UInt32 {
        let mac = HMACDigest.sha1(key: secret, message: withUnsafeBytes(of: counter.bigEndian, Array.init))
        let offset = Int(mac[19] & 0x0F)
        return UInt32(mac[offset] & 0x7F) << 24 | UInt32(mac[offset + 1]) << 16
            | UInt32(mac[offset + 2]) << 8 | UInt32(mac[offset + 3])
    }

    private static let powersOfTen: [UInt32] = (0...9).map { (0..<$0).reduce(UInt32(1)) { acc, _ in acc * 10 } }
}
