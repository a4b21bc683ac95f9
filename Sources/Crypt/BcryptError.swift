/// Why a password could not be hashed or checked. Descriptions never include the password.
public enum BcryptError: Error, Equatable, Sendable, CustomStringConvertible {
    /// bcrypt reads at most 72 bytes; longer passwords are refused rather than silently cut.
    case passwordTooLong
    /// C strings end at NUL, so a password containing one would be silently cut there.
    case passwordContainsNUL
    /// bcrypt costs run from 4 to 31.
    case invalidCost(Int)
    /// libcrypt refused to produce a salt or a hash.
    case hashingFailed
    /// Refused at once, without hashing, by `BcryptHasher.Admission`: too many hashes wait, or
    /// the wait would be too long. Try again in `retryAfter` whole seconds (at least 1).
    case overloaded(retryAfter: Int)

    public var description: String {
        switch self {
        case .passwordTooLong: "Password is longer than \(Bcrypt.maxPasswordBytes) bytes."
        case .passwordContainsNUL: "Password contains a NUL byte."
        case .invalidCost(let cost): "bcrypt cost \(cost) is outside 4...31."
        case .hashingFailed: "bcrypt hashing failed."
        case .overloaded(let retryAfter): "Too many passwords are being checked; retry in \(retryAfter) s."
        }
    }
}
