import Crypt
import Web

/// Verifies a password against a user's stored bcrypt hash, on the worker pool, in the same
/// time whether or not the user exists (no user enumeration by timing).
struct PasswordCheck: Sendable {
    let hasher: BcryptHasher

    /// A hash of a random password, verified when the username is unknown so that a response
    /// takes as long for unknown users as for wrong passwords.
    private static let dummySaltAndHash = "CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"

    /// True when `password` is `user`'s. A password bcrypt cannot take whole (over 72 bytes,
    /// NUL) matches nothing, after the same work as any other attempt.
    func matches(_ password: String, of user: User?) async throws -> Bool {
        let usable = Bcrypt.canTake(password)
        let candidate = usable ? password : "-"
        let matches = try await hasher.verify(candidate, created: user?.passwordHash ?? dummyHash)
        return usable && user != nil && matches
    }

    /// The dummy hash at the configured cost, so it costs what a real check costs.
    private var dummyHash: String {
        let cost = hasher.cost
        return "$2b$\(cost < 10 ? "0" : "")\(cost)$" + Self.dummySaltAndHash
    }
}
