/// Text from a server, made safe to show at a terminal. Characters that do not print —
/// controls (Cc: C0 such as ESC, C1 such as CSI U+009B), format characters (Cf: bidi
/// overrides, zero-width ones) and the line and paragraph separators — are written as
/// `\u{…}` escapes, so a value cannot move the cursor, retitle the window, reverse the text
/// after it, or hide a character in plain sight. JSON output is left as it is: a script
/// decodes it. `til` shows a server's text through it, `til-server` its database's.
public enum TerminalText {
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isNonPrinting) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isNonPrinting(scalar) {
                result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    static func isNonPrinting(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}
