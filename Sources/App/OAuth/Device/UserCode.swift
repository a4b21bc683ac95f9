import Crypt
import Foundation

/// The code a person types on the verification page (RFC 8628 §6.1): eight letters of
/// `BCDFGHJKLMNPQRSTVWXZ` (no vowels, so no words; no digits, so no 0/O or 1/I mix-ups),
/// 20⁸ ≈ 2.6 · 10¹⁰ of them, shown as `XXXX-XXXX`.
///
/// What a person types is read forgivingly but never loosely: NFKC first, so fullwidth
/// `ＢＣＤＦ－ＧＨＪＫ` (an East Asian keyboard's) is `BCDF-GHJK`; then dashes and spaces of any
/// script are dropped and ASCII letters uppercased. Anything else left, a Cyrillic `В` that
/// only looks like `B` included, makes it no code at all: it is refused, never folded onto a
/// letter it resembles.
enum UserCode {
    static let alphabet = Array("BCDFGHJKLMNPQRSTVWXZ")
    static let length = 8
    /// The most a form may send as a user code: a long value is no code, and is not read.
    static let maxInputBytes = 64

    /// A fresh code, uniform over the alphabet (rejection sampling over random bytes).
    static func generate() -> String {
        var letters: [Character] = []
        while letters.count < length {
            // 240 = 12 × 20: bytes from 240 up would favour the first letters.
            for byte in SecureRandom.bytes(count: 2 * length) where byte < 240 && letters.count < length {
                letters.append(alphabet[Int(byte) % alphabet.count])
            }
        }
        return String(letters)
    }

    /// `code` as shown: `BCDF-GHJK`.
    static func display(_ code: String) -> String {
        "\(code.prefix(4))-\(code.dropFirst(4))"
    }

    /// The stored form of what was typed: eight letters of the alphabet, or nil when it is no
    /// code.
    static func normalized(_ typed: String) -> String? {
        guard typed.utf8.count <= maxInputBytes else { return nil }
        var letters = ""
        for scalar in typed.precomposedStringWithCompatibilityMapping.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .dashPunctuation, .spaceSeparator: continue
            default: break
            }
            guard scalar.isASCII, let upper = Character(scalar).uppercased().first, alphabet.contains(upper) else { return nil }
            letters.append(upper)
        }
        return letters.count == length ? letters : nil
    }
}
