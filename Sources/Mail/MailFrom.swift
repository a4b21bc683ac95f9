import Foundation

/// Who a message is from: the envelope's `MAIL FROM` address and the `From` header, with an
/// optional display name (`TIL <no-reply@til.example>`).
public struct MailFrom: Sendable, Equatable, CustomStringConvertible {
    public let name: String?
    public let address: MailAddress

    public init(name: String? = nil, address: MailAddress) throws(MailHeaderError) {
        if let name, name.unicodeScalars.contains(where: HeaderText.isControl) { throw .controlCharacter(header: "From") }
        self.name = name.flatMap { $0.isEmpty ? nil : $0 }
        self.address = address
    }

    /// Reads `no-reply@til.example` or `TIL <no-reply@til.example>` (`MAIL_FROM`'s forms).
    public init(parsing text: String) throws(MailHeaderError) {
        let trimmed = text.trimmingSpaces
        guard trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") else {
            try self.init(address: MailAddress(trimmed, header: "From"))
            return
        }
        let address = try MailAddress(String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]), header: "From")
        var name = String(trimmed[..<open]).trimmingSpaces
        if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") { name = String(name.dropFirst().dropLast()) }
        try self.init(name: name, address: address)
    }

    public var description: String {
        name.map { "\($0) <\(address)>" } ?? address.address
    }

    /// `From: "TIL" <no-reply@til.example>`: the name as a quoted string (or encoded-words
    /// when not ASCII), the address in angle brackets.
    func headerField() throws(MailHeaderError) -> String {
        guard let name else { return try HeaderText.addressField("From", address) }
        let displayName: String
        if name.unicodeScalars.allSatisfy(\.isASCII), !name.contains("=?") {
            displayName = "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        } else {
            displayName = HeaderText.encodedWords(name)
        }
        let field = "From: \(displayName) <\(address.address)>"
        guard field.utf8.count <= HeaderText.maxLineLength else { throw .tooLong(header: "From") }
        return field
    }
}

extension String {
    /// Without leading and trailing spaces and tabs (Foundation-free `trimmingCharacters`).
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
