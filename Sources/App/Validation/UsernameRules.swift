import Foundation
import Web

/// What a username may be, and when two usernames are the same.
///
/// - At most 64 bytes of UTF-8, not blank, no control characters (like every text field),
///   and no `:` — HTTP Basic splits the credentials at the first one, so such a user could
///   never log in.
/// - Nothing that shows as something else: no format characters (Unicode `Cf`: zero-width
///   spaces and joiners, bidi overrides and isolates, soft hyphens, tags), and no white space
///   at either end. `admin\u{200B}` or `admin ` would read as `admin` in every list.
/// - Stored in Unicode NFC: `é` typed as one scalar or as `e` + combining accent is the same
///   username, stored once, in its composed form.
/// - Unique ignoring case: `admin`, `Admin` and `ADMIN` cannot coexist (409), and a login
///   finds the user whatever case or normalisation form the client sends. Case is folded
///   by PostgreSQL's `lower()`, through the unique index on `lower(username)` that both the
///   insert and the login lookup use. The stored name keeps the case it was created with.
enum UsernameRules {
    static let maxBytes = 64

    /// The form a username is stored and looked up in.
    static func normalized(_ username: String) -> String {
        username.precomposedStringWithCanonicalMapping
    }

    /// Throws a 400 naming `field` when `username` (checked in its stored form) breaks a rule.
    static func validate(_ username: String, field: String = "username") throws {
        let stored = normalized(username)
        try Validation.text(stored, field: field, max: maxBytes)
        guard !stored.contains(":") else {
            throw Abort(.badRequest, reason: "'\(field)' must not contain ':'.")
        }
        guard !stored.unicodeScalars.contains(where: { $0.properties.generalCategory == .format }) else {
            throw Abort(
                .badRequest, reason: "'\(field)' must not contain invisible formatting characters (Unicode Cf: zero-width, bidi controls).")
        }
        let scalars = stored.unicodeScalars
        guard scalars.first?.properties.isWhitespace == false, scalars.last?.properties.isWhitespace == false else {
            throw Abort(.badRequest, reason: "'\(field)' must not begin or end with white space.")
        }
    }
}
