/// Base32 (RFC 4648 §6, the uppercase alphabet A–Z 2–7): how otpauth URIs carry a TOTP secret,
/// and what people type when they cannot scan the QR code.
public enum Base32 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// `bytes` in base32; `padding` adds the `=` that RFC 4648 ends a partial group with
    /// (the Key Uri Format leaves it out).
    public static func encode(_ bytes: [UInt8], padding: Bool = false) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 4) / 5 * 8)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = buffer << 8 | UInt32(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                output.append(alphabet[Int(buffer >> UInt32(bits) & 0x1F)])
            }
        }
        if bits > 0 { output.append(alphabet[Int(buffer << UInt32(5 - bits) & 0x1F)]) }
        if padding { while output.count % 8 != 0 { output.append(UInt8(ascii: "=")) } }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of `text` (either case, padding optional), or nil if it is not base32: a
    /// character outside the alphabet, an impossible length, or non-zero leftover bits.
    public static func decode(_ text: String) -> [UInt8]? {
        var symbols = Array(text.utf8)
        while symbols.last == UInt8(ascii: "=") { symbols.removeLast() }
        // A group of 8 symbols ends after 2, 4, 5 or 7 of them, never 1, 3 or 6.
        guard ![1, 3, 6].contains(symbols.count % 8) else { return nil }
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for symbol in symbols {
            guard let value = value(of: symbol) else { return nil }
            buffer = buffer << 5 | value
            bits += 5
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        guard buffer & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return output
    }

    private static func value(of symbol: UInt8) -> UInt32? {
        switch symbol {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(symbol - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(symbol - UInt8(ascii: "a"))
        case UInt8(ascii: "2")...UInt8(ascii: "7"): UInt32(symbol - UInt8(ascii: "2")) + 26
        default: nil
        }
    }
}
