/// Reads the pieces HTTP header values are made of (RFC 9110 §5.6): tokens, quoted strings
/// with `\` escapes, `name=value` parameters, separators. Quotes are honoured, so a `,` or an
/// `error=` inside an `error_description` cannot be mistaken for structure.
struct HeaderScanner {
    private let scalars: [Unicode.Scalar]
    private var index = 0

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    var isAtEnd: Bool { index >= scalars.count }
    var peek: Unicode.Scalar? { isAtEnd ? nil : scalars[index] }

    mutating func skipSpaces() {
        while let scalar = peek, scalar == " " || scalar == "\t" { index += 1 }
    }

    /// Consumes `scalar` (after spaces) if it comes next.
    mutating func take(_ scalar: Unicode.Scalar) -> Bool {
        skipSpaces()
        guard peek == scalar else { return false }
        index += 1
        return true
    }

    /// Everything up to (not including) `end`, which is consumed; nil if `end` never comes.
    mutating func until(_ end: Unicode.Scalar) -> String? {
        var text = String.UnicodeScalarView()
        while let scalar = peek {
            index += 1
            if scalar == end { return String(text) }
            text.append(scalar)
        }
        return nil
    }

    /// A token, or a quoted string without its quotes and escapes.
    mutating func value() -> String {
        skipSpaces()
        guard take("\"") else { return token() }
        var text = String.UnicodeScalarView()
        while let scalar = peek {
            index += 1
            if scalar == "\"" { break }
            if scalar == "\\", let escaped = peek {
                index += 1
                text.append(escaped)
            } else {
                text.append(scalar)
            }
        }
        return String(text)
    }

    /// Characters up to a space, `=`, `,`, `;` or `"`.
    mutating func token() -> String {
        skipSpaces()
        var text = String.UnicodeScalarView()
        while let scalar = peek, !" \t=,;\"".unicodeScalars.contains(scalar) {
            text.append(scalar)
            index += 1
        }
        return String(text)
    }

    /// Skips to just past the next `,` outside quotes (or the end): recovery from junk.
    mutating func skipElement() {
        while let scalar = peek {
            if scalar == "\"" { _ = value(); continue }
            index += 1
            if scalar == "," { return }
        }
    }
}
