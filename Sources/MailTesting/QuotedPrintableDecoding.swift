/// Quoted-printable (RFC 2045 §6.7) and RFC 2047 encoded-words read back, as a mail client does.
enum QuotedPrintableDecoding {
    /// The bytes `text` encodes: `=XX` escapes decoded, soft line breaks (`=` at a line's end)
    /// removed, hard line breaks kept as they were written.
    static func decode(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "=") else {
                output.append(byte)
                index += 1
                continue
            }
            if index + 2 < bytes.count, bytes[index + 1] == 0x0D, bytes[index + 2] == 0x0A {
                index += 3
            } else if index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                index += 2
            } else if index + 2 < bytes.count, let value = UInt8(String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self), radix: 16) {
                output.append(value)
                index += 3
            } else {
                output.append(byte)
                index += 1
            }
        }
        return output
    }
}
