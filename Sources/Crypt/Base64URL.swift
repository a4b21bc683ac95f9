/// Unpadded base64url (RFC 4648 §5): safe in headers, URLs and cookies without escaping.
/// Written out here because it is twenty lines, and Foundation's `Data` would be the only
/// reason to import Foundation.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            // Up to three bytes make a 24-bit group; n input bytes give n + 1 characters.
            let available = min(3, bytes.count - index)
            var group: UInt32 = 0
            for offset in 0..<3 where offset < available {
                group |= UInt32(bytes[index + offset]) << (16 - 8 * offset)
            }
            for position in 0...available {
                output.append(alphabet[Int(group >> (18 - 6 * position) & 63)])
            }
            index += available
        }
        return String(decoding: output, as: UTF8.self)
    }
}
