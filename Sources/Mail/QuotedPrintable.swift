/// RFC 2045 §6.7 quoted-printable: the body encoding of both parts. It keeps a message 7-bit
/// with lines of at most 76 characters (any SMTP server carries it, 8BITMIME or not) while
/// the English text and the link stay readable in the raw message.
enum QuotedPrintable {
    static let maxLineLength = 76

    /// `text` with its line breaks (LF, CRLF or CR) as CRLF, every line encoded.
    static func encode(_ text: String) -> String {
        var lines: [String] = []
        var line: [UInt8] = []
        var previousWasCR = false
        for byte in text.utf8 {
            if byte == 0x0A, previousWasCR {
                previousWasCR = false
                continue
            }
            previousWasCR = byte == 0x0D
            if byte == 0x0A || byte == 0x0D {
                lines.append(encodeLine(line))
                line = []
            } else {
                line.append(byte)
            }
        }
        lines.append(encodeLine(line))
        return lines.joined(separator: "\r\n")
    }

    /// One line of text, split by soft line breaks (`=` CRLF) where it would pass 76 characters.
    private static func encodeLine(_ bytes: [UInt8]) -> String {
        var output = ""
        var current = ""
        for (index, byte) in bytes.enumerated() {
            let isLast = index == bytes.count - 1
            let token = literal(byte, atLineEnd: isLast) ? String(UnicodeScalar(byte)) : escaped(byte)
            // Room for the token and, unless this is the line's end, a soft break's `=`.
            if current.utf8.count + token.utf8.count > maxLineLength - (isLast ? 0 : 1) {
                output += current + "=\r\n"
                current = ""
            }
            current += token
        }
        return output + current
    }

    /// Printable ASCII but `=`; a space or tab too, unless it ends the line (where transports strip it).
    private static func literal(_ byte: UInt8, atLineEnd: Bool) -> Bool {
        switch byte {
        case 0x21...0x3C, 0x3E...0x7E: true
        case 0x20, 0x09: !atLineEnd
        default: false
        }
    }

    private static func escaped(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "=" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }
}
