import Foundation

/// `timestamptz` in PostgreSQL's ISO text form, with the session in UTC (set at connect):
/// `2026-11-22 16:16:34.123456+00`.
enum PostgresTimestamp {
    static func format(_ date: Date) -> String {
        let micros = (date.timeIntervalSince1970 * 1_000_000).rounded()
        let seconds = Int((micros / 1_000_000).rounded(.down))
        let fraction = Int(micros) - seconds * 1_000_000
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        func pad(_ n: Int, _ width: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2)) "
            + "\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):\(pad(Int(parts.tm_sec), 2)).\(pad(fraction, 6))+00"
    }

    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            while index < bytes.count, bytes[index] >= 0x30 && bytes[index] <= 0x39 {
                fraction += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
        }
        var offsetSeconds = 0
        if index < bytes.count {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            guard bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"),
                  let hours = number((index + 1)..<(index + 3)) else { return nil }
            var minutes = 0
            if index + 6 <= bytes.count, bytes[index + 3] == UInt8(ascii: ":") { minutes = number((index + 4)..<(index + 6)) ?? 0 }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let epoch = timegm(&parts)
        return Date(timeIntervalSince1970: Double(epoch - offsetSeconds) + fraction)
    }
}
