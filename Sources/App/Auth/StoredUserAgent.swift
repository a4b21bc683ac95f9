import Foundation
import Web

extension Request {
    /// The `User-Agent` a new session records, for its owner to read in
    /// `GET /api/users/me/sessions` and `til sessions`: without control characters (Unicode
    /// `Cc`: C0, DEL and C1 such as CSI U+009B, which terminals obey) and format characters
    /// (`Cf`: bidi overrides, zero-width), which could rewrite or disguise what is shown;
    /// trimmed, at most 256 characters and 1,024 UTF-8 bytes (a character may carry any number
    /// of combining marks), nil when nothing is left. (The audit log keeps the
    /// header as sent: its handler escapes every value.)
    var storedUserAgent: String? {
        guard let header = headers["User-Agent"] else { return nil }
        let visible = String(String.UnicodeScalarView(header.unicodeScalars.filter { scalar in
            let category = scalar.properties.generalCategory
            return category != .control && category != .format
        }))
        let trimmed = visible.trimmingCharacters(in: .whitespaces)
        var kept = Substring(trimmed.prefix(256))
        while kept.utf8.count > 1024 { kept = kept.dropLast() }
        let cut = kept.trimmingCharacters(in: .whitespaces)
        return cut.isEmpty ? nil : cut
    }
}
