import Foundation
import Web

/// One note, as stored and as answered (an id in lower case, the time in ISO 8601).
struct Note: Content, Equatable {
    let id: String
    let text: String
    let createdAt: String

    init(text: String, at date: Date = Date()) {
        id = UUID().uuidString.lowercased()
        self.text = text
        createdAt = date.ISO8601Format()
    }

    /// What `POST /notes` takes.
    struct Draft: Content {
        let text: String

        static let maxCharacters = 1000

        /// The text trimmed, 1 to `maxCharacters` characters without control characters.
        func checkedText() throws -> String {
            let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty, text.count <= Self.maxCharacters else {
                throw Abort(.badRequest, reason: "'text' must be 1 to \(Self.maxCharacters) characters.")
            }
            guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\n" }) else {
                throw Abort(.badRequest, reason: "'text' must not contain control characters.")
            }
            return text
        }
    }
}
