import Foundation
import Web

/// Field rules for request bodies; each failure is a 400 that names the field.
///
/// Sizes are counted in UTF-8 bytes, never in characters: one character can be thousands of
/// bytes (a letter with many combining marks), and PostgreSQL's limits — a btree index entry
/// holds at most ~2.7 KB — are in bytes.
enum Validation {
    static func text(_ value: String, field: String, max: Int) throws {
        // Unicode's White_Space: the set `.whitespacesAndNewlines` names, without Foundation's
        // trimming (which copies the text through NSString: 3 % of a create's CPU).
        guard !value.unicodeScalars.allSatisfy(\.properties.isWhitespace) else {
            throw Abort(.badRequest, reason: "'\(field)' must not be empty.")
        }
        guard value.utf8.count <= max else {
            throw Abort(.badRequest, reason: "'\(field)' must be at most \(max) bytes.")
        }
        guard !value.unicodeScalars.contains(where: isControl) else {
            throw Abort(.badRequest, reason: "'\(field)' must not contain control characters.")
        }
    }

    /// C0 and C1 control characters and DEL (Unicode category Cc).
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control
    }
}
