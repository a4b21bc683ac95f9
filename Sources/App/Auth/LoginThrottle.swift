import Foundation
import Postgres
import Web

/// Failed logins counted in PostgreSQL, per username and per client address, over a sliding
/// window — shared by every TIL process on the database, so a balancer cannot be used to
/// multiply an attacker's guesses.
///
/// A row per failure; "throttled" means the N-th most recent failure is still inside the
/// window, and `Retry-After` is when it leaves. No permanent lockout: the window slides, and a
/// successful login clears its username's rows. Attempts answered 429 are not recorded, so a
/// throttled client cannot extend its own window.
struct LoginThrottle: Sendable {
    let db: PostgresClient
    /// Failures per username within `window`; an address may fail `addressFactor` times as often.
    let maxFailures: Int
    let window: Duration
    static let addressFactor = 5

    /// Seconds until a login for `username` from `address` may be tried again; nil when it may now.
    func retryAfter(username: String, address: String) async throws -> Int? {
        let key = Self.key(username), window = window.seconds
        let rows = try await db.query("""
            SELECT extract(epoch FROM (
                       SELECT at FROM login_failures
                       WHERE username = \(key) AND at > now() - \(window) * interval '1 second'
                       ORDER BY at DESC OFFSET \(maxFailures - 1) LIMIT 1
                   ) + \(window) * interval '1 second' - now())::float8 AS username_wait,
                   extract(epoch FROM (
                       SELECT at FROM login_failures
                       WHERE address = \(address) AND at > now() - \(window) * interval '1 second'
                       ORDER BY at DESC OFFSET \(maxFailures * Self.addressFactor - 1) LIMIT 1
                   ) + \(window) * interval '1 second' - now())::float8 AS address_wait
            """)
        guard let row = rows.first else { return nil }
        let waits = [try row.decode(column: "username_wait", as: Double?.self),
                     try row.decode(column: "address_wait", as: Double?.self)].compactMap { $0 }
        guard let longest = waits.max() else { return nil }
        return max(1, Int(longest.rounded(.up)))
    }

    /// The answer to a throttled attempt: 429 with `Retry-After`, never a bcrypt run.
    static func refusal(retryAfter seconds: Int) -> Abort {
        Abort(.tooManyRequests, reason: "Too many failed attempts; try again in \(seconds) seconds.", headers: [
            "Retry-After": "\(seconds)",
        ])
    }

    func recordFailure(username: String, address: String) async throws {
        try await db.execute("INSERT INTO login_failures (username, address) VALUES (\(Self.key(username)), \(address))")
    }

    /// A successful login forgives its username's failures (not its address's: one good
    /// account must not launder an address that guesses at others); so does
    /// `til-server users unlock`. How many failures were forgiven.
    @discardableResult
    func reset(username: String) async throws -> Int {
        try await db.execute("DELETE FROM login_failures WHERE username = \(Self.key(username))")
    }

    /// Usernames are counted as the user table compares them: NFC, case-folded, so `Admin`
    /// and `admin` share one counter. Bounded, so a megabyte of name cannot become a key.
    static func key(_ username: String) -> String {
        String(UsernameRules.normalized(username).lowercased().prefix(256))
    }
}
