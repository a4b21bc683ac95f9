import Foundation
import Web

/// What an account's email address may be, and when two addresses are the same.
///
/// A plain syntax check and nothing cleverer: whether an address works is what the
/// verification mail finds out, so the rules only keep out what cannot be an address or would
/// be unsafe to carry further (into a mail header, a log line, a page).
///
/// - At most 254 bytes of UTF-8 (RFC 5321's path limit less the angle brackets), in NFC: an
///   `é` typed as one scalar or as `e` + a combining accent is the same address, stored once.
/// - Exactly one `@`, a name before it of at most 64 bytes (RFC 5321 §4.5.3.1.1), and a domain
///   after it holding a dot, neither beginning nor ending with one, with no empty label.
/// - No white space, control or invisible formatting characters (Unicode Cc, Cf), and none of
///   the characters quoted names, comments and address literals are made of: `" ( ) , : ; < >
///   [ ] \`. Non-ASCII letters are fine (internationalised addresses, RFC 6531).
/// - Unique ignoring case: the unique index on `lower(email)` refuses `Tim@Example.com` when
///   `tim@example.com` is taken (409 naming `email`). The stored address keeps its case.
enum EmailRules {
    static let maxBytes = 254
    static let maxLocalBytes = 64
    /// Characters no plain address holds: quoting, comments, groups, address literals.
    static let specials: Set<Unicode.Scalar> = ["\"", "(", ")", ",", ":", ";", "<", ">", "[", "]", "\\"]

    /// The form an address is stored, compared and mailed in.
    static func normalized(_ email: String) -> String {
        email.precomposedStringWithCanonicalMapping
    }

    /// The stored form of `email`; throws a 400 naming `field` when it breaks a rule.
    @discardableResult
    static func validate(_ email: String, field: String = "email") throws -> String {
        let stored = normalized(email)
        guard !stored.isEmpty else { throw refusal(field, "must not be empty") }
        guard stored.utf8.count <= maxBytes else { throw refusal(field, "must be at most \(maxBytes) bytes") }
        for scalar in stored.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control: throw refusal(field, "must not contain control characters")
            case .format: throw refusal(field, "must not contain invisible formatting characters (Unicode Cf)")
            default: break
            }
            if scalar.properties.isWhitespace { throw refusal(field, "must not contain spaces") }
            if specials.contains(scalar) {
                throw refusal(field, #"must be a plain address: no quotes, comments or any of " ( ) , : ; < > [ ] \"#)
            }
        }
        let parts = stored.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw refusal(field, "must hold exactly one '@'") }
        let (local, domain) = (parts[0], parts[1])
        guard !local.isEmpty, local.utf8.count <= maxLocalBytes else {
            throw refusal(field, "must have a name of 1 to \(maxLocalBytes) bytes before the '@'")
        }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, !labels.contains(where: \.isEmpty) else {
            throw refusal(field, "must have a domain with a dot after the '@' (like example.com)")
        }
        return stored
    }

    private static func refusal(_ field: String, _ rule: String) -> Abort {
        Abort(.badRequest, reason: "'\(field)' \(rule).")
    }
}
