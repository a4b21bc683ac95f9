import Foundation

/// RFC 2047 encoded-words (`=?UTF-8?B?…?=`, `=?UTF-8?Q?…?=`) in a header value, decoded;
/// whitespace between two adjacent encoded-words dropped, as §6.2 says.
enum EncodedWords {
    static func decode(_ value: String) -> String {
        let pattern = /=\?([^?]+)\?([bBqQ])\?([^?]*)\?=/
        var output = ""
        var rest = Substring(value)
        var previousWasWord = false
        while let match = rest.firstMatch(of: pattern) {
            let between = rest[..<match.range.lowerBound]
            if !(previousWasWord && between.allSatisfy(\.isWhitespace)) { output += between }
            output += decodeWord(encoding: String(match.2), text: String(match.3))
            rest = rest[match.range.upperBound...]
            previousWasWord = true
        }
        return output + rest
    }

    private static func decodeWord(encoding: String, text: String) -> String {
        if encoding.uppercased() == "B" {
            return String(decoding: Data(base64Encoded: text) ?? Data(), as: UTF8.self)
        }
        let bytes = QuotedPrintableDecoding.decode(text.replacingOccurrences(of: "_", with: " "))
        return String(decoding: bytes, as: UTF8.self)
    }
}
