import CommonPasswords
import Crypt
import Web

/// The one definition of an acceptable password: for users created through the API, a
/// password change, the operator's `users set-password`, and the admin password read from
/// `ADMIN_PASSWORD`.
///
/// Counted in UTF-8 bytes, because that is what bcrypt reads: at least 8 (shorter is too
/// weak), at most 72 (bcrypt ignores the rest, and a password must never be cut silently),
/// and no NUL (C would stop reading there). And not one of the most common passwords
/// (`CommonPasswords`, ASVS 6.2.4), unless `COMMON_PASSWORD_CHECK=off` says so.
struct PasswordRules: Sendable {
    static let byteCount = 8...Bcrypt.maxPasswordBytes

    /// `COMMON_PASSWORD_CHECK`: refuse the common passwords. On unless turned off, in every
    /// environment; the book's tests, whose passwords are "password", turn it off.
    var refusesCommonPasswords = true

    /// Throws a 400 naming `field` when `password` breaks a rule.
    func validate(_ password: String, field: String = "password") throws(Abort) {
        try Self.validateBytes(of: password, field: field)
        guard !refusesAsCommon(password) else { throw Abort(.badRequest, reason: Self.commonReason(field: field)) }
    }

    /// Builds the list of common passwords now, when it will be used: at start-up rather than
    /// in the first request that sets a password.
    func prepare() {
        if refusesCommonPasswords { CommonPasswords.prepare() }
    }

    /// Whether `password` is refused for being common (never when the check is off).
    func refusesAsCommon(_ password: String) -> Bool {
        refusesCommonPasswords && CommonPasswords.contains(password)
    }

    /// The rules on the bytes alone (length, NUL): a 400 naming `field`.
    static func validateBytes(of password: String, field: String) throws(Abort) {
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

    /// Why a common password is refused: it is among the first an attacker tries. The list's
    /// rank, not its length (which only counts those long enough), is what the reader needs.
    static func commonReason(field: String) -> String {
        "'\(field)' is one of the 30,000 most common passwords, the first ones an attacker tries: choose another."
    }
}

extension PasswordRules {
    /// `COMMON_PASSWORD_CHECK`, or on.
    init(reader: ConfigReader) throws(ConfigurationError) {
        refusesCommonPasswords = try reader.isOn(.commonPasswordCheck) ?? true
    }
}
