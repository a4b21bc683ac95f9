import Crypt
import Foundation
import Postgres

/// `oauth_device_codes` as the device flow's three parties use it: the device authorization
/// endpoint starts a code, the verification page finds it by user code and records the
/// user's one decision, and the token endpoint polls it (`DeviceCodeGrant`).
struct DeviceCodeRepository: Sendable {
    let db: PostgresClient
    let lifetime: Duration

    /// A code just started: the device code (shown once, stored as a digest) and the user code.
    struct Started: Sendable {
        let deviceCode: String
        let userCode: String
    }

    /// A pending code as the verification page shows it.
    struct Pending: Sendable {
        let userCode: String
        let client: OAuthClient
        let scopes: [String]
    }

    /// Starts a code for `client` and `scopes`; nil when `address` (a public client's caller)
    /// started `limit` codes within the hour already. One address's starts are counted one at a
    /// time (an advisory lock), so starts sent at once cannot all read a count below the limit.
    /// A user code already pending is drawn again (the unique index says so; at 2.6 · 10¹⁰
    /// codes that is rare enough to retry).
    func start(client: OAuthClient, scopes: [String], from address: String?, limit: Int) async throws -> Started? {
        for attempt in 1...3 {
            let started = Started(deviceCode: SecureRandom.token(), userCode: UserCode.generate())
            do {
                let stored = try await db.withTransaction { tx in
                    if let address { try await tx.execute("SELECT pg_advisory_xact_lock(4, hashtext(\(address)))") }
                    return try await tx.execute("""
                        INSERT INTO oauth_device_codes (digest, user_code, client_id, scopes, expires_at, requested_from)
                        SELECT \(SHA256.hex(of: started.deviceCode)), \(started.userCode), \(client.id), \(scopes.joined(separator: " ")),
                               now() + \(lifetime.seconds) * interval '1 second', \(address)
                        WHERE \(address)::text IS NULL OR (
                            SELECT count(*) FROM oauth_device_codes
                            WHERE requested_from = \(address) AND created_at > now() - interval '1 hour') < \(limit)
                        """)
                }
                return stored == 1 ? started : nil
            } catch let error as PostgresError where error.sqlState == .uniqueViolation && attempt < 3 {
                continue
            }
        }
        preconditionFailure("the loop returns or throws")
    }

    /// The live, undecided code with this (normalized) user code, with its client.
    func pending(userCode: String) async throws -> Pending? {
        let rows = try await db.query("""
            SELECT c.*, d.scopes AS device_scopes
            FROM oauth_device_codes d JOIN oauth_clients c ON c.id = d.client_id
            WHERE d.user_code = \(userCode) AND d.status = 'pending' AND d.expires_at > now()
            """)
        guard let row = rows.first else { return nil }
        let scopes = try row.decode(column: "device_scopes", as: String.self).split(separator: " ").map(String.init)
        return Pending(userCode: userCode, client: try ClientRepository.client(row), scopes: scopes)
    }

    /// Records the user's decision on a pending, live code: true when this call decided it,
    /// false when it was decided (or expired) before. One statement, so of two decisions on one
    /// code exactly one counts. `authTime` is the deciding browser session's sign-in: the
    /// device's session inherits it (`RecentAuthentication`).
    func decide(userCode: String, approve: Bool, userID: UUID, authTime: Date) async throws -> Bool {
        try await db.execute("""
            UPDATE oauth_device_codes
            SET status = \(approve ? "approved" : "denied"), user_id = \(userID), decided_at = now(), auth_time = \(authTime)
            WHERE user_code = \(userCode) AND status = 'pending' AND expires_at > now()
            """) == 1
    }
}
