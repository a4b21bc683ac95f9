import Foundation
import Web

/// A moment as a page shows it: `<time datetime="2026-11-24T17:13:22Z">24 Nov 2026, 17:13
/// UTC</time>`, the machine-readable instant beside words a person reads at a glance. Always
/// UTC: the server does not know the reader's zone, and a page must not guess.
enum PageDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func html(_ date: Date) -> HTML {
        "<time datetime=\"\(date.formatted(.iso8601))\">\(text(date))</time>"
    }

    /// `24 Nov 2026, 17:13 UTC`.
    static func text(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let month = months[((parts.month ?? 1) - 1) % 12]
        let time = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        return "\(parts.day ?? 1) \(month) \(parts.year ?? 1970), \(time) UTC"
    }
}
