import Glibc

/// The one format of TIL's log lines: logfmt, one record per line, every value quoted.
///
/// ```text
/// time="2026-11-24T04:37:07.123Z" level="notice" logger="til" msg="audit login.failed" address="127.0.0.1" event="login.failed"
/// ```
///
/// A value is whatever a client managed to put into it (a User-Agent, a path, an error), so
/// every value is written between quotes with `"` and `\` escaped, `\n`, `\r`, `\t` as such,
/// and every other character that could end, bend or hide a line — controls (C0, DEL, C1),
/// format characters (bidi overrides, zero-width), line and paragraph separators, unassigned
/// code points — as `\uXXXX` (or `\UXXXXXXXX`). So a value can never close its quotes, start
/// a field or start a line: `user-agent="x\" event=\"login.succeeded\""` is one field, and
/// `event="login.succeeded"` appears in a line only as a real field. Keys are the code's own,
/// but are still reduced to `[A-Za-z0-9._/-]`; metadata named like a fixed field gets `meta.`.
enum Logfmt {
    /// The fields every line starts with, in this order.
    static let fixedKeys: Set<String> = ["time", "level", "logger", "msg"]

    /// One whole line, without its line feed: the fixed fields, then `metadata` by key. Built
    /// in one buffer: this runs for every line the process logs (the access log: every request).
    static func line(
        time: timespec, level: String, logger: String, message: String, metadata: [String: String]
    ) -> String {
        var line = "time="
        line.reserveCapacity(112 + message.utf8.count + 48 * metadata.count)
        appendQuoted(timestamp(time), to: &line)
        line += " level="
        appendQuoted(level, to: &line)
        line += " logger="
        appendQuoted(logger, to: &line)
        line += " msg="
        appendQuoted(message, to: &line)
        for (name, value) in metadata.sorted(by: { $0.key < $1.key }) {
            let safe = key(name)
            line += fixedKeys.contains(safe) ? " meta." : " "
            line += safe
            line += "="
            appendQuoted(value, to: &line)
        }
        return line
    }

    /// `value` between quotes, escaped so that it reads back as exactly itself.
    static func quoted(_ value: String) -> String {
        var out = ""
        appendQuoted(value, to: &out)
        return out
    }

    /// Appends `quoted(value)` to `out`. A value of printable ASCII without `"` or `\` (a path,
    /// an id, an address: most values) is copied as it is; only the others are read scalar by
    /// scalar, and only scalars beyond ASCII need Unicode's categories.
    static func appendQuoted(_ value: String, to out: inout String) {
        out += "\""
        if value.utf8.allSatisfy(isPlainASCII) {
            out += value
        } else {
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": out += #"\""#
                case "\\": out += #"\\"#
                case "\n": out += #"\n"#
                case "\r": out += #"\r"#
                case "\t": out += #"\t"#
                case _ where hides(scalar): out += escaped(scalar)
                default: out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    private static func isPlainASCII(_ byte: UInt8) -> Bool {
        (0x20..<0x7F).contains(byte) && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }

    /// `name` with anything but ASCII letters, digits and `._/-` as `_` (never empty).
    static func key(_ name: String) -> String {
        if !name.isEmpty, name.utf8.allSatisfy(isKeyByte) { return name }
        let kept = name.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && isKeyByte(UInt8(scalar.value)) ? Character(scalar) : "_"
        }
        return kept.isEmpty ? "_" : String(kept)
    }

    private static func isKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "/"), UInt8(ascii: "-"): true
        default: false
        }
    }

    /// True for a character that could end, bend or hide a line on a terminal or in a viewer.
    private static func hides(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar.value < 0x20 || scalar.value == 0x7F }  // C0 and DEL
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .unassigned, .surrogate: return true
        default: return false
        }
    }

    /// `\u200b`, or `\U000e0041` beyond the Basic Multilingual Plane.
    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16)
        let width = scalar.value > 0xFFFF ? 8 : 4
        return (width == 8 ? "\\U" : "\\u") + String(repeating: "0", count: width - hex.count) + hex
    }

    /// `2026-11-24T04:37:07.123Z`: UTC, milliseconds.
    static func timestamp(_ time: timespec) -> String {
        var seconds = time.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis = Int(time.tv_nsec / 1_000_000)
        let fraction = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(fraction)Z"
    }
}
