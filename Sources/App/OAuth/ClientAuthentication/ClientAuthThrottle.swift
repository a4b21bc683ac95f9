import Postgres

/// Failed client authentications, counted like failed logins (`LoginThrottle`): in
/// `login_failures`, so every process shares them, per client and per address. The client's
/// key is `client:<client_id>`, which no username can be (usernames never hold `:`), and an
/// address's failures count toward the same budget as its failed logins.
///
/// Only a failure reads or writes it: a secret is 256 bits, so a right one is never guessed,
/// and the success path stays one statement (introspection is benchmarked). Past the limit a
/// failure is answered 429 with `Retry-After` instead of 401.
struct ClientAuthThrottle: Sendable {
    let db: PostgresClient
    let maxFailures: Int
    let window: Duration

    /// Records a failure for `clientID` from `address`; the seconds to wait when over a limit.
    func recordFailure(clientID: String, address: String) async throws -> Double? {
        let key = "client:" + String(clientID.prefix(128))
        let rows = try await db.query("""
            WITH failure AS (INSERT INTO login_failures (username, address) VALUES (\(key), \(address)))
            SELECT count(*) FILTER (WHERE username = \(key))::int AS by_client,
                   count(*) FILTER (WHERE address = \(address))::int AS by_address
            FROM login_failures
            WHERE (username = \(key) OR address = \(address)) AND at > now() - \(window.seconds) * interval '1 second'
            """)
        // The statement's snapshot does not see its own insert: one more each.
        let byClient = (try rows.first?.decode(column: "by_client", as: Int.self) ?? 0) + 1
        let byAddress = (try rows.first?.decode(column: "by_address", as: Int.self) ?? 0) + 1
        guard byClient > maxFailures || byAddress > maxFailures * LoginThrottle.addressFactor else { return nil }
        return window.seconds
    }
}
