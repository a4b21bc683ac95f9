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

    /// One whole line, without its line feed: the fixed fields, then `metadata` by key.
    static func line(
        time: timespec, level: String, logger: String, message: String, metadata: [String: String]
    ) -> String {
        var line = "time=\(quoted(timestamp(time))) level=\(quoted(level)) logger=\(quoted(logger)) msg=\(quoted(message))"
        for (name, value) in metadata.sorted(by: { $0.key < $1.key }) {
            let safe = key(name)
            line += " \(fixedKeys.contains(safe) ? "meta." + safe : safe)=\(quoted(value))"
        }
        return line
    }

    /// `value` between quotes, escaped so that it reads back as exactly itself.
    static func quoted(_ value: String) -> String {
        var out = String.UnicodeScalarView()
        out.append("\"")
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"", "\\":
                out.append("\\")
                out.append(scalar)
            case "\n": out.append(contentsOf: #"\n"#.unicodeScalars)
            case "\r": out.append(contentsOf: #"\r"#.unicodeScalars)
            case "\t": out.append(contentsOf: #"\t"#.unicodeScalars)
            case _ where hides(scalar): out.append(contentsOf: escaped(scalar).unicodeScalars)
            default: out.append(scalar)
            }
        }
        out.append("\"")
        return String(out)
    }

    /// `name` with anything but ASCII letters, digits and `._/-` as `_` (never empty).
    static func key(_ name: String) -> String {
        let kept = name.unicodeScalars.map { scalar -> Character in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", ".", "_", "/", "-": Character(scalar)
            default: "_"
            }
        }
        return kept.isEmpty ? "_" : String(kept)
    }

    /// True for a character that could end, bend or hide a line on a terminal or in a viewer.
    private static func hides(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .unassigned, .surrogate: true
        default: false
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
