import Foundation
import Web

/// The owner's label for a passkey ("Laptop", "Téléphone de Zoë"): stored in Unicode NFC and
/// trimmed of white space at both ends, 1 to 64 characters, none of them control or format
/// characters (a zero-width space or a bidi override would make two names look alike or hide
/// text in the account page).
enum PasskeyName {
    static let maxCharacters = 64
    /// A bound in bytes too: one character can be hundreds of bytes of combining marks.
    static let maxBytes = 256

    /// The stored form of `text`, or a 400 naming `field`.
    static func validated(_ text: String, field: String = "name") throws -> String {
        let name = text.precomposedStringWithCanonicalMapping.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw Abort(.badRequest, reason: "'\(field)' must not be empty.") }
        guard name.count <= maxCharacters, name.utf8.count <= maxBytes else {
            throw Abort(.badRequest, reason: "'\(field)' must be at most \(maxCharacters) characters (\(maxBytes) bytes).")
        }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory.isControlOrFormat }) else {
            throw Abort(.badRequest, reason: "'\(field)' must not contain control or invisible formatting characters.")
        }
        return name
    }
}
