import Foundation

/// Base64url without padding (RFC 4648 §5, RFC 7515 §2): PKCE values, `state`, `nonce`, and
/// the parts of a JWT.
enum Base64URL {
    static func encode(_ bytes: some Collection<UInt8>) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// Nil unless `text` is base64url without padding.
    static func decode(_ text: some StringProtocol) -> Data? {
        guard text.utf8.allSatisfy({ alphabet.contains($0) }), text.utf8.count % 4 != 1 else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        return Data(base64Encoded: base64)
    }

    /// `count` bytes from the system's secure generator (getrandom on Linux, arc4random on
    /// Apple platforms), encoded.
    static func random(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return encode((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    private static let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
}
