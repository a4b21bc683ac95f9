import Postgres

/// Failed client authentications, counted like failed logins (`LoginThrottle`): per client
/// (`client:<client_id>`) and per address, through `FailureThrottle`.
///
/// Only a failure reads or writes it: a secret is 256 bits, so a right one is never guessed,
/// and the success path stays one statement (introspection is benchmarked). Past the limit a
/// failure is answered 429 with `Retry-After` instead of 401.
struct ClientAuthThrottle: Sendable {
    let failures: FailureThrottle

    init(db: PostgresClient, maxFailures: Int, window: Duration) {
        failures = FailureThrottle(db: db, maxFailures: maxFailures, window: window)
    }

    /// Records a failure for `clientID` from `address`; the seconds to wait when over a limit.
    func recordFailure(clientID: String, address: String) async throws -> Double? {
        try await failures.recordFailure(key: "client:" + String(clientID.prefix(128)), address: address)
    }
}
