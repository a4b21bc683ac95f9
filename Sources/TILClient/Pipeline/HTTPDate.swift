import Foundation

/// The IMF-fixdate of `Date` and `Retry-After` headers (RFC 9110 §5.6.7):
/// `Sun, 06 Nov 1994 08:49:37 GMT`. The obsolete forms are not read: TIL never sends them.
enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let year = Int(parts[3]),
              let month = months.firstIndex(of: String(parts[2])) else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar.date(from: DateComponents(
            year: year, month: month + 1, day: day, hour: time[0], minute: time[1], second: time[2]))
    }
}
