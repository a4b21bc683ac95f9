/// The server's master secret (`SECRET_KEY`): at least 32 random bytes, written as base64
/// (standard or url-safe, padding optional) or hex. Nothing is encrypted with it directly:
/// `AtRestCipher` derives one key per purpose from it.
public struct SecretKey: Sendable, Equatable {
    /// Fewer bytes than this is refused: 256 bits, the strength of the AES key derived from it.
    public static let minimumByteCount = 32
    /// More than this is refused as a mistake (a file pasted in), not a stronger key.
    public static let maximumByteCount = 1024

    let bytes: [UInt8]

    /// The key `text` spells, or nil unless it is 64+ hex digits or base64 of 32+ bytes. Hex is
    /// tried first: 64 hex digits are also valid base64, and mean the 32 bytes they spell.
    public init?(text: String) {
        let trimmed = text.trimmingWhitespace
        guard let bytes = Self.hex(trimmed) ?? Self.base64(trimmed),
            (Self.minimumByteCount...Self.maximumByteCount).contains(bytes.count)
        else { return nil }
        self.bytes = bytes
    }

    /// A fresh random key (for development's generated key file).
    public static func random() -> SecretKey {
        SecretKey(bytes: SecureRandom.bytes(count: minimumByteCount))
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// A key for one `purpose` (a fixed label such as "til signing keys v1"), derived by
    /// HKDF-SHA256: a key for one purpose reveals nothing of another's.
    public func derivedKey(purpose: String, length: Int = 32) -> [UInt8] {
        HKDF.sha256(secret: bytes, salt: [], info: Array(purpose.utf8), length: length)
    }

    /// The key as unpadded base64url, the form `random()` keys are written in.
    public var text: String { Base64URL.encode(bytes) }

    private static func hex(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count.isMultiple(of: 2), !digits.isEmpty else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Standard or url-safe base64, with or without `=` padding, through `Base64URL`.
    private static func base64(_ text: String) -> [UInt8]? {
        var unpadded = Substring(text)
        while unpadded.last == "=" { unpadded.removeLast() }
        let urlSafe = String(unpadded.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
        return Base64URL.decode(urlSafe)
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and newlines (a key file ends with one).
    fileprivate var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
