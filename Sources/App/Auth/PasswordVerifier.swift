import Crypt
import Web

/// The one check of a password someone claims: a login's, and the current password a
/// password change must give. The throttle admits the attempt first and finds the account in
/// the same statement — a refused attempt costs no bcrypt and is not counted — then the
/// password is verified on the worker pool in the same time whether or not the user exists
/// (no user enumeration by timing). An admitted attempt stays counted as a failure unless the
/// password proves right.
struct PasswordVerifier: Sendable {
    let hasher: BcryptHasher
    let throttle: LoginThrottle
    /// On the primary: `reprove` must see a hash written a moment ago.
    let users: UserRepository

    /// What a claim came to. The caller answers each its own way (a login 401 or a 403).
    enum Verdict: Sendable {
        /// The password is `User`'s; with TOTP on, a login needs its second step as well.
        case accepted(User, secondFactorRequired: Bool)
        /// Wrong password or no such user.
        case rejected
        /// Refused by the throttle: answer `LoginThrottle.refusal(retryAfter:)`.
        case throttled(retryAfter: Double)
    }

    /// A verdict with what the audit line says about it.
    struct Outcome: Sendable {
        let verdict: Verdict
        /// The username as PostgreSQL folds it (the throttle's key and the lookup's).
        let username: String
        /// The account the username names, if any (for the audit line only).
        let user: User?
    }

    /// Checks `password` for `username` from `address`.
    func verify(_ password: String, username: String, address: String) async throws -> Outcome {
        let attempt = try await throttle.begin(username: username, address: address)
        func outcome(_ verdict: Verdict) -> Outcome { Outcome(verdict: verdict, username: attempt.key, user: attempt.user) }
        guard attempt.id != nil else { return outcome(.throttled(retryAfter: attempt.retryAfter ?? 1)) }
        let matched: Bool
        do {
            matched = try await matches(password, of: attempt.user)
        } catch {
            try? await throttle.release(attempt)  // no password was checked, so no guess was made
            throw error
        }
        guard matched, let user = attempt.user else { return outcome(.rejected) }
        let secondFactorRequired = try await throttle.succeeded(attempt, user: user)
        return outcome(.accepted(user, secondFactorRequired: secondFactorRequired))
    }

    /// `user` as stored now, if its hash changed since `password` was verified and still takes
    /// it (another login or process rehashed it at a new cost); nil when the password itself
    /// changed, or nothing did. One more bcrypt, paid only in that race.
    func reprove(_ password: String, of user: User) async throws -> User? {
        guard let current = try await users.find(user.id), current.passwordHash != user.passwordHash,
              try await matches(password, of: current)
        else { return nil }
        return current
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
