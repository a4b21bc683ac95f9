import Postgres

/// Failures of something guessable, counted in `login_failures` so every process shares them:
/// per key (a client, a browser session) and per address, within a sliding window. A key is
/// `<kind>:<id>`, which no username can be (usernames never hold `:`), and an address's
/// failures count toward the same budget as its failed logins (`LoginThrottle.addressFactor`
/// times the per-key limit).
struct FailureThrottle: Sendable {
    let db: PostgresClient
    let maxFailures: Int
    let window: Duration

    /// Records a failure of `key` from `address`; the seconds to wait when over a limit.
    func recordFailure(key: String, address: String) async throws -> Double? {
        let rows = try await db.query("""
            WITH failure AS (INSERT INTO login_failures (username, address) VALUES (\(key), \(address)))
            \(counts(key: key, address: address))
            """)
        // The statement's snapshot does not see its own insert: one more each.
        return try wait(rows.first, adding: 1)
    }

    /// The seconds to wait when `key` or `address` is over its limit already; nil otherwise.
    func wait(key: String, address: String) async throws -> Double? {
        try wait(try await db.query(counts(key: key, address: address)).first, adding: 0)
    }

    private func counts(key: String, address: String) -> PostgresQuery {
        """
        SELECT count(*) FILTER (WHERE username = \(key))::int AS by_key,
               count(*) FILTER (WHERE address = \(address))::int AS by_address
        FROM login_failures
        WHERE (username = \(key) OR address = \(address)) AND at > now() - \(window.seconds) * interval '1 second'
        """
    }

    private func wait(_ row: PostgresRow?, adding extra: Int) throws -> Double? {
        let byKey = (try row?.decode(column: "by_key", as: Int.self) ?? 0) + extra
        let byAddress = (try row?.decode(column: "by_address", as: Int.self) ?? 0) + extra
        guard byKey > maxFailures || byAddress > maxFailures * LoginThrottle.addressFactor else { return nil }
        return window.seconds
    }
}
