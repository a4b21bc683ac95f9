import Crypt

/// base64url as the WebAuthn JSON forms use it (L3 §5.1.4: `Base64URLString`, no padding).
/// Padding is tolerated — up to two `=` closing a length that is a multiple of 4 — because
/// non-browser clients (and some libraries' encoders) pad; the bytes are the same either way,
/// and everything else (other characters, non-zero unused bits) is refused as by
/// `Crypt.Base64URL`.
enum WebAuthnBase64URL {
    /// The bytes `text` encodes, nil when it is not base64url or decodes to more than `limit`.
    static func decode(_ text: String, limit: Int) -> [UInt8]? {
        var utf8 = Substring(text).utf8[...]
        guard utf8.count <= (limit + 2) / 3 * 4 else { return nil }
        if utf8.count % 4 == 0 {
            for _ in 0..<2 where utf8.last == UInt8(ascii: "=") { utf8 = utf8.dropLast() }
        }
        guard let bytes = Base64URL.decode(String(Substring(utf8))), bytes.count <= limit else { return nil }
        return bytes
    }
}
