/// What the authorization endpoint accepts as a code challenge (RFC 7636 §4.2, S256): the
/// base64url SHA-256 of a verifier, without padding, so exactly 43 characters of the base64url
/// alphabet whose last one encodes only 4 bits. Required of every client, public or
/// confidential; `plain` is never accepted.
extension PKCE {
    static let challengeLength = 43

    static func isChallenge(_ challenge: String) -> Bool {
        let bytes = Array(challenge.utf8)
        guard bytes.count == challengeLength, bytes.allSatisfy(isBase64URL) else { return false }
        // 43 characters carry 258 bits; the digest's 256 leave the last character's low 2 bits zero.
        guard let last = bytes.last, let value = sextet(last) else { return false }
        return value & 0b11 == 0
    }

    private static func isBase64URL(_ byte: UInt8) -> Bool { sextet(byte) != nil }

    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
