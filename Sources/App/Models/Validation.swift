import Foundation
import Web

/// Field rules for request bodies; each failure is a 400 that names the field.
enum Validation {
    static func text(_ value: String, field: String, max: Int) throws {
        guard !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw Abort(.badRequest, reason: "'\(field)' must not be empty.")
        }
        guard value.count <= max else {
            throw Abort(.badRequest, reason: "'\(field)' must be at most \(max) characters.")
        }
        guard !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw Abort(.badRequest, reason: "'\(field)' must not contain control characters.")
        }
    }

    /// 8 to 72 bytes: bcrypt reads no more than 72, and shorter than 8 is too weak.
    static func password(_ value: String) throws {
        guard value.utf8.count >= 8 else { throw Abort(.badRequest, reason: "'password' must be at least 8 characters.") }
        guard value.utf8.count <= 72 else { throw Abort(.badRequest, reason: "'password' must be at most 72 bytes.") }
        guard !value.utf8.contains(0) else { throw Abort(.badRequest, reason: "'password' must not contain NUL.") }
    }
}
