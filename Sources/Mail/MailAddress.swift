/// One mailbox address (`local@domain`), as an SMTP envelope (`MAIL FROM:<…>`, `RCPT TO:<…>`)
/// and a `To`/`From` header carry it. Only what would break either is refused here: control
/// characters, spaces, angle brackets, and anything but exactly one `@` between two non-empty
/// parts. Whether the address is a good one is the caller's business (TIL checks syntax when
/// an address is stored). Non-ASCII is kept as UTF-8 (RFC 6531/6532).
public struct MailAddress: Sendable, Equatable, CustomStringConvertible {
    public let address: String

    public init(_ address: String, header: String = "address") throws(MailHeaderError) {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
            !address.unicodeScalars.contains(where: { Self.forbidden($0) })
        else {
            if address.unicodeScalars.contains(where: HeaderText.isControl) { throw .controlCharacter(header: header) }
            throw .badAddress(header: header)
        }
        guard address.utf8.count <= 254 else { throw .tooLong(header: header) }
        self.address = address
    }

    public var description: String { address }

    private static func forbidden(_ scalar: Unicode.Scalar) -> Bool {
        HeaderText.isControl(scalar) || scalar == " " || scalar == "<" || scalar == ">" || scalar.properties.isWhitespace
    }
}
