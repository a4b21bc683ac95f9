import Foundation
import Web

/// Codes as people type them, brought to the one form the server checks: Unicode NFKC first
/// (full-width `１２３４５６` from a phone's keyboard is `123456`), then spaces and dashes
/// dropped (apps show `123 456`; recovery codes are printed in dash-separated groups), then, for
/// recovery codes, upper case. A value that cannot be a code is a 400 naming its field before
/// anything is looked up or counted: it proves nothing and guesses nothing.
enum SecondFactorInput {
    /// The longest value read at all, in UTF-8 bytes (a code with generous spacing fits).
    static let maxBytes = 128

    /// A TOTP code: exactly six ASCII digits once normalised.
    static func code(_ text: String, field: String = "code") throws -> String {
        let normalized = try normalize(text, field: field)
        guard normalized.utf8.count == 6, normalized.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw Abort(.badRequest, reason: "'\(field)' must be the 6 digits the authenticator app shows.")
        }
        return normalized
    }

    /// A recovery code: `RecoveryCode.length` base32 characters once normalised, upper case.
    static func recoveryCode(_ text: String, field: String = "recoveryCode") throws -> String {
        let normalized = try normalize(text, field: field).uppercased()
        guard normalized.utf8.count == RecoveryCode.length, normalized.utf8.allSatisfy(RecoveryCode.isAlphabet) else {
            throw Abort(.badRequest, reason: "'\(field)' must be one of the recovery codes: \(RecoveryCode.length) letters and digits.")
        }
        return normalized
    }

    /// The proof a request gives: exactly one of `code` and `recoveryCode`; nil when neither.
    static func proof(code: String?, recoveryCode: String?) throws -> SecondFactorProof? {
        switch (code, recoveryCode) {
        case (let code?, nil): .code(try Self.code(code))
        case (nil, let recovery?): .recoveryCode(try Self.recoveryCode(recovery))
        case (nil, nil): nil
        case (_?, _?): throw Abort(.badRequest, reason: "Give either 'code' or 'recoveryCode', not both.")
        }
    }

    private static func normalize(_ text: String, field: String) throws -> String {
        guard text.utf8.count <= maxBytes else { throw Abort(.badRequest, reason: "'\(field)' must be at most \(maxBytes) bytes.") }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && !$0.properties.isWhitespace })
        else { throw Abort(.badRequest, reason: "'\(field)' must not contain control characters.") }
        let folded = text.precomposedStringWithCompatibilityMapping
        return String(String.UnicodeScalarView(folded.unicodeScalars.filter { !$0.properties.isWhitespace && !isDash($0) }))
    }

    /// Hyphen-minus and the dashes NFKC leaves alone (Unicode's Dash property).
    private static func isDash(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "-" || scalar.properties.isDash
    }
}
