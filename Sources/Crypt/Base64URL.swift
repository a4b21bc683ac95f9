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

    /// The bytes `text` encodes, or nil unless it is canonical unpadded base64url: only the
    /// alphabet's characters, no padding, a length that is not 1 more than a multiple of 4, and
    /// zero unused low bits (so every byte string has exactly one accepted text).
    public static func decode(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        guard input.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(input.count * 3 / 4)
        var index = 0
        while index < input.count {
            let available = min(4, input.count - index)
            var group: UInt32 = 0
            for offset in 0..<available {
                guard let value = sextet(input[index + offset]) else { return nil }
                group |= value << (18 - 6 * offset)
            }
            let bytes = available - 1
            guard group & (0xFF_FFFF >> (8 * bytes)) == 0 else { return nil }
            for position in 0..<bytes {
                output.append(UInt8(truncatingIfNeeded: group >> (16 - 8 * position)))
            }
            index += available
        }
        return output
    }

    private static func sextet(_ character: UInt8) -> UInt32? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(character - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(character - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(character - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
