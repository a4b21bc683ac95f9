import Foundation
import Postgres
import Web

/// Login attempts counted in PostgreSQL, so every TIL process on the database throttles alike
/// and a balancer cannot multiply an attacker's guesses. Three rules, each a sliding count:
///
/// - **The pair**: a username from one client address, `maxFailures` within `window`.
/// - **The address**, over every username (password spraying): `addressFactor` × `maxFailures`
///   within `window`.
/// - **The account**, over every address: `AccountBackoff`'s doubling waits.
///
/// An address where the user logged in within `knownOriginLifetime` is stopped only by its
/// pair: a stranger guessing elsewhere cannot lock the owner out at home. A refusal is an
/// immediate 429 with `Retry-After` (never a sleep), and is not counted itself.
///
/// An attempt is counted *before* its password is checked (`begin`, one statement that also
/// finds the account), so concurrent attempts cannot all pass: the count is the admission.
/// Its row is a failure unless the password proves right (`succeeded` deletes it) or no
/// check ran (`release`). Usernames are keyed by PostgreSQL's `lower()` of their NFC form,
/// the very expression the user lookup compares, so no spelling the lookup accepts has a
/// counter of its own.
struct LoginThrottle: Sendable {
    let db: PostgresClient
    /// Failures per (username, address) within `window`; an address may fail `addressFactor`
    /// times as often over all usernames.
    let maxFailures: Int
    let window: Duration
    let backoff: AccountBackoff
    static let addressFactor = 5
    /// How long a successful login keeps its address known for the user.
    static let knownOriginLifetime: Duration = .seconds(30 * 86400)

    /// An attempt as the throttle saw it: admitted (counted until it succeeds) or refused.
    struct Attempt: Sendable {
        /// The row counting it; nil when refused.
        let id: Int64?
        /// Seconds until an attempt may be admitted again; nil when admitted.
        let retryAfter: Double?
        /// The username as PostgreSQL folds it: the throttle's key and the lookup's.
        let key: String
        let address: String
        /// The account the username names, if any.
        let user: User?
    }

    /// Counts an attempt for `username` from `address`, or refuses it; finds the account either way.
    func begin(username: String, address: String) async throws -> Attempt {
        // Past 256 bytes a name matches no account, and only its first 256 scalars are keyed.
        let claimed = String(UsernameRules.normalized(username).unicodeScalars.prefix(257))
        // The account's columns renamed as every user query names them, for `UserRepository.user`.
        let rows = try await db.query("""
            SELECT attempt, wait_seconds, throttle_key, account_id AS id, account_name AS name,
                   account_username AS username, account_password_hash AS "passwordHash"
            FROM login_attempt_begin(
                \(claimed), \(address), \(maxFailures), \(maxFailures * Self.addressFactor), \(window.seconds),
                \(backoff.threshold), \(backoff.base.seconds), \(backoff.max.seconds), \(backoff.window.seconds),
                \(Self.knownOriginLifetime.seconds), \(AccountBackoff.maxDoublings))
            """)
        guard let row = rows.first else { throw Abort(.internalServerError, reason: "login_attempt_begin answered no row") }
        let user = try row.decode(column: "id", as: UUID?.self).map { _ in try UserRepository.user(row) }
        return Attempt(
            id: try row.decode(column: "attempt", as: Int64?.self), retryAfter: try row.decode(column: "wait_seconds", as: Double?.self),
            key: try row.decode(column: "throttle_key", as: String.self), address: address, user: user)
    }

    /// The password was right: the attempt is no failure, the pair's earlier failures are
    /// forgiven (not the username's from other addresses, nor the address's at other
    /// usernames: one good account must not launder an address that guesses at others), and
    /// the address is known for `user` for another `knownOriginLifetime`. One round trip, which
    /// also answers whether `user` has TOTP on: a password login then stops for its second step,
    /// and needs no query of its own to know it.
    @discardableResult
    func succeeded(_ attempt: Attempt, user: User) async throws -> Bool {
        let rows = try await db.query("""
            WITH forgiven AS (
                DELETE FROM login_failures
                WHERE id = \(attempt.id) OR (username = \(attempt.key) AND address = \(attempt.address))
            )
            INSERT INTO login_known_origins (user_id, kind, origin, last_success_at)
            VALUES (\(user.id), 'address', \(attempt.address), now())
            ON CONFLICT (user_id, kind, origin) DO UPDATE SET last_success_at = excluded.last_success_at
            RETURNING \(TOTPCredentialRepository.isOn(for: user.id)) AS totp
            """)
        return try rows.first?.decode(column: "totp", as: Bool.self) ?? false
    }

    /// No password was checked (the bcrypt queue refused it, the client left): not a failure.
    func release(_ attempt: Attempt) async throws {
        try await db.execute("DELETE FROM login_failures WHERE id = \(attempt.id)")
    }

    /// The answer to a refused attempt: 429 with `Retry-After`, never a bcrypt run.
    static func refusal(retryAfter seconds: Double) -> Abort {
        .tooMany("failed attempts", retryAfter: seconds)
    }

    /// Forgives every failure of `username`, from every address, and of `extraKey` (the account's
    /// own wrong second-factor codes) in the same statement (`til-server users unlock`); how many.
    @discardableResult
    func reset(username: String, alsoKey extraKey: String? = nil) async throws -> Int {
        try await db.execute("""
            DELETE FROM login_failures WHERE username = \(Self.key(of: username)) OR username = \(extraKey)
            """)
    }

    /// The throttle's key for `username`, in SQL: `login_attempt_begin`'s `v_key`.
    static func key(of username: String) -> PostgresQuery {
        "lower(left(\(UsernameRules.normalized(username)), 256))"
    }
}
