/// A strict reader of the log lines `til-server` writes, for tests: one record per line,
/// `key="value"` pairs separated by single spaces, every value quoted, with `\"`, `\\`, `\n`,
/// `\r`, `\t`, `\uXXXX` and `\UXXXXXXXX` escapes. Anything else — an unquoted value, a stray
/// quote, text between pairs, an unknown escape — makes a line unreadable (nil): a line that
/// an attacker's text could have bent out of that shape.
public enum LogfmtReader {
    /// The records of `text`, split at every character Unicode calls a line break (LF, CR, NEL,
    /// U+2028, …, as many log viewers do); nil for a line that is not one whole record.
    public static func records(_ text: String) -> [[(key: String, value: String)]?] {
        text.split(whereSeparator: \.isNewline).map { record(String($0)) }
    }

    /// The fields of one line in order, or nil when it is not exactly one record.
    public static func record(_ line: String) -> [(key: String, value: String)]? {
        var fields: [(key: String, value: String)] = []
        var scalars = Substring(line).unicodeScalars
        while !scalars.isEmpty {
            if !fields.isEmpty {
                guard scalars.first == " " else { return nil }
                scalars.removeFirst()
            }
            let key = scalars.prefix { $0 != "=" && $0 != " " && $0 != "\"" }
            guard !key.isEmpty else { return nil }
            scalars.removeFirst(key.count)
            guard scalars.first == "=", scalars.dropFirst().first == "\"" else { return nil }
            scalars.removeFirst(2)
            guard let value = quotedValue(&scalars) else { return nil }
            fields.append((String(key), value))
        }
        return fields.isEmpty ? nil : fields
    }

    /// The value up to its closing quote (consumed), unescaped; nil when it never closes.
    private static func quotedValue(_ scalars: inout Substring.UnicodeScalarView) -> String? {
        var value = String.UnicodeScalarView()
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "\"": return String(value)
            case "\\":
                guard let escaped = scalars.popFirst() else { return nil }
                switch escaped {
                case "\"", "\\": value.append(escaped)
                case "n": value.append("\n")
                case "r": value.append("\r")
                case "t": value.append("\t")
                case "u", "U":
                    let digits = escaped == "u" ? 4 : 8
                    let hex = String(scalars.prefix(digits))
                    guard hex.count == digits, let code = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(code) else { return nil }
                    scalars.removeFirst(digits)
                    value.append(decoded)
                default: return nil
                }
            default: value.append(scalar)
            }
        }
        return nil
    }
}

extension Array where Element == (key: String, value: String) {
    /// The value of the first field named `key`.
    public subscript(field key: String) -> String? { first { $0.key == key }?.value }
}
