import Foundation
import Web

/// A name a person gives a thing of theirs (a passkey, a personal access token): stored in
/// Unicode NFC and trimmed of white space at both ends, so two spellings of one name are one
/// name; at least one character and at most `maxCharacters` (and `maxBytes`: one character can
/// be hundreds of bytes of combining marks); no control or format characters (a zero-width
/// space or a bidi override would make two names look alike, or hide text on a page).
enum Label {
    /// The stored form of `text`, or a 400 naming `field`.
    static func validated(_ text: String, field: String, maxCharacters: Int, maxBytes: Int) throws -> String {
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
