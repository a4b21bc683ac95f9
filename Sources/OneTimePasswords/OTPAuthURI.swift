/// The `otpauth://` URI an authenticator app scans to enrol (Google's Key Uri Format):
/// `otpauth://totp/TIL:<username>?secret=<base32>&issuer=TIL`. SHA-1, 6 digits and 30 s are
/// the format's defaults, so they are left out (some apps mishandle them when present).
public enum OTPAuthURI {
    /// The issuer shown in the app, as the label prefix and the `issuer` parameter.
    public static let issuer = "TIL"

    public static func totp(username: String, secret: [UInt8]) -> String {
        let label = percentEncoded(issuer) + ":" + percentEncoded(username)
        return "otpauth://totp/\(label)?secret=\(Base32.encode(secret))&issuer=\(percentEncoded(issuer))"
    }

    /// RFC 3986 percent-encoding of the UTF-8 bytes: everything but the unreserved characters,
    /// so a `:`, `/`, `?`, `&`, space or any non-ASCII letter in a username stays in the label.
    static func percentEncoded(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                output.unicodeScalars.append("%")
                output.unicodeScalars.append(hex[Int(byte >> 4)])
                output.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return output
    }
}
