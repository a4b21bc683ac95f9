import Crypt
import Web

/// The one definition of an acceptable password, for users created through the API and for
/// the admin password read from `ADMIN_PASSWORD`.
///
/// Counted in UTF-8 bytes, because that is what bcrypt reads: at least 8 (shorter is too
/// weak), at most 72 (bcrypt ignores the rest, and a password must never be cut silently),
/// and no NUL (C would stop reading there).
enum PasswordRules {
    static let byteCount = 8...Bcrypt.maxPasswordBytes

    /// Throws a 400 naming `field` when `password` breaks a rule.
    static func validate(_ password: String, field: String = "password") throws {
        let bytes = password.utf8.count
        guard bytes >= byteCount.lowerBound else {
            throw Abort(.badRequest, reason: "'\(field)' must be at least \(byteCount.lowerBound) bytes.")
        }
        guard bytes <= byteCount.upperBound else {
            throw Abort(.badRequest, reason: "'\(field)' must be at most \(byteCount.upperBound) bytes.")
        }
        guard !password.utf8.contains(0) else {
            throw Abort(.badRequest, reason: "'\(field)' must not contain NUL.")
        }
    }
}
