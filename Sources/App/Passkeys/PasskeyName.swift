import Web

/// The owner's label for a passkey ("Laptop", "Téléphone de Zoë"): a `Label` of 1 to 64
/// characters.
enum PasskeyName {
    static let maxCharacters = 64
    /// A bound in bytes too: one character can be hundreds of bytes of combining marks.
    static let maxBytes = 256

    /// The stored form of `text`, or a 400 naming `field`.
    static func validated(_ text: String, field: String = "name") throws -> String {
        try Label.validated(text, field: field, maxCharacters: maxCharacters, maxBytes: maxBytes)
    }
}
