import Foundation

/// Header values as RFC 5322 and RFC 2047 want them: one line, ASCII as it is, anything else
/// as UTF-8 encoded-words (`=?UTF-8?B?…?=`), folded so no line passes 78 characters.
enum HeaderText {
    /// The longest header line RFC 5322 allows, without its CRLF.
    static let maxLineLength = 998

    /// C0 controls (CR and LF among them) and DEL: nothing a header value may hold. Tab too:
    /// TIL's header values never need one, and it is folding whitespace.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F
    }

    /// `value` checked for control characters and length, as the field `name` carries it:
    /// printable ASCII unchanged, anything else (or text that looks like an encoded-word)
    /// as encoded-words.
    static func field(_ name: String, _ value: String) throws(MailHeaderError) -> String {
        guard !value.unicodeScalars.contains(where: isControl) else { throw .controlCharacter(header: name) }
        guard value.utf8.count <= maxLineLength - name.utf8.count - 2 else { throw .tooLong(header: name) }
        let needsEncoding = !value.unicodeScalars.allSatisfy(\.isASCII) || value.contains("=?")
        return "\(name): " + (needsEncoding ? encodedWords(value) : value)
    }

    /// An address header (`To`): the address as it is, UTF-8 included (RFC 6532); an
    /// encoded-word is never allowed in an address.
    static func addressField(_ name: String, _ address: MailAddress) throws(MailHeaderError) -> String {
        guard address.address.utf8.count <= maxLineLength - name.utf8.count - 2 else { throw .tooLong(header: name) }
        return "\(name): \(address.address)"
    }

    /// RFC 2047 §5 "B" encoded-words, at most 75 characters each (45 bytes of UTF-8, never a
    /// code point split between two words, as §5 requires), joined by folding whitespace,
    /// which decoders drop between encoded-words.
    static func encodedWords(_ value: String) -> String {
        var words: [String] = []
        var chunk: [UInt8] = []
        for scalar in value.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            if chunk.count + bytes.count > 45 {
                words.append(word(chunk))
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty { words.append(word(chunk)) }
        return words.joined(separator: "\r\n ")
    }

    private static func word(_ bytes: [UInt8]) -> String {
        "=?UTF-8?B?" + Data(bytes).base64EncodedString() + "?="
    }
}
