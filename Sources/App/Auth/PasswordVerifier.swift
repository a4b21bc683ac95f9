import Crypt
import Web

/// The one check of a password someone claims: a login's, and the current password a
/// password change must give. Throttled first — a throttled attempt costs no bcrypt and no
/// user lookup, and is not counted — then verified on the worker pool in the same time whether
/// or not the user exists (no user enumeration by timing); a failure is counted against the
/// username and the client address, a success forgives the username's failures.
struct PasswordVerifier: Sendable {
    let hasher: BcryptHasher
    let throttle: LoginThrottle

    /// What a claim came to. The caller answers each its own way (a login 401 or a 403).
    enum Verdict: Sendable {
        case accepted(User)
        /// Wrong password or no such user (`user` says which, for the audit log only).
        case rejected(User?)
        /// Too many recent failures: answer `LoginThrottle.refusal(retryAfter:)`.
        case throttled(retryAfter: Int)
    }

    /// Checks `password` for `username` from `address`; `user` finds the account, and runs only
    /// when the attempt is not throttled.
    func verify(
        _ password: String, username: String, address: String, user find: () async throws -> User?
    ) async throws -> Verdict {
        if let wait = try await throttle.retryAfter(username: username, address: address) {
            return .throttled(retryAfter: wait)
        }
        let user = try await find()
        guard try await matches(password, of: user), let user else {
            try await throttle.recordFailure(username: username, address: address)
            return .rejected(user)
        }
        try await throttle.reset(username: username)
        return .accepted(user)
    }

    /// True when `password` is `user`'s. A password bcrypt cannot take whole (over 72 bytes,
    /// NUL) matches nothing, after the same work as any other attempt.
    private func matches(_ password: String, of user: User?) async throws -> Bool {
        let usable = Bcrypt.canTake(password)
        let candidate = usable ? password : "-"
        let matches = try await hasher.verify(candidate, created: user?.passwordHash ?? dummyHash)
        return usable && user != nil && matches
    }

    /// A hash of a random password, verified when the username is unknown so that a response
    /// takes as long for unknown users as for wrong passwords; at the configured cost, so it
    /// costs what a real check costs.
    private var dummyHash: String {
        let cost = hasher.cost
        return "$2b$\(cost < 10 ? "0" : "")\(cost)$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"
    }
}
