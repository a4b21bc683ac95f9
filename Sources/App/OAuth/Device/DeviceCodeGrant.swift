import Crypt
import Foundation
import Postgres
import Web

/// The device's token request (RFC 8628 §3.4, §3.5): `grant_type=…:device_code` with the
/// `device_code`, polled until the user decides.
///
/// Each poll locks the code's row (`FOR UPDATE`) and answers in the transaction that records
/// it, so two polls never both see an approval: the first moves it to `redeemed` and starts
/// the session, the second finds it redeemed. A poll sooner than `interval_seconds` after the
/// last one is `slow_down` and adds five seconds to the interval, stored (§3.5): a client that
/// keeps polling too fast keeps hearing it, whatever the user decided meanwhile.
struct DeviceCodeGrant: Sendable {
    let db: PostgresClient
    let tokens: OAuthTokenIssuer

    /// How much `slow_down` adds to the interval (RFC 8628 §3.5).
    static let slowDownStep = 5

    func redeem(form: QueryParameters, client: OAuthClient) async throws -> OAuthTokenAnswer {
        guard let code = form["device_code"], !code.isEmpty else { throw OAuthError.invalidRequest("'device_code' is missing.") }
        guard code.utf8.count <= 256 else { throw Self.unknown }
        let digest = SHA256.hex(of: code)
        let tokens = tokens
        let outcome = try await db.withTransaction { tx -> Result<OAuthTokenAnswer, OAuthError> in
            let rows = try await tx.query("""
                SELECT client_id, status, user_id, scopes, auth_time, expires_at > now() AS live,
                       last_polled_at IS NOT NULL AND now() < last_polled_at + interval_seconds * interval '1 second' AS too_soon
                FROM oauth_device_codes WHERE digest = \(digest) FOR UPDATE
                """)
            guard let row = rows.first else { return .failure(Self.unknown) }
            // Another client's code is unknown to this one: nothing of it changes.
            guard ConstantTime.equals(try row.decode(column: "client_id", as: String.self), client.id) else { return .failure(Self.unknown) }
            let status = try row.decode(column: "status", as: String.self)
            if status == "redeemed" { return .failure(.invalidGrant("The device code was used already.")) }
            guard try row.decode(column: "live", as: Bool.self) else {
                return .failure(OAuthError(status: .badRequest, code: "expired_token", description: "The device code expired; start again."))
            }
            if try row.decode(column: "too_soon", as: Bool.self) {
                try await tx.execute("""
                    UPDATE oauth_device_codes SET last_polled_at = now(), interval_seconds = interval_seconds + \(Self.slowDownStep)
                    WHERE digest = \(digest)
                    """)
                return .failure(OAuthError(
                    status: .badRequest, code: "slow_down", description: "Polling too fast: wait \(Self.slowDownStep) seconds more between polls."))
            }
            switch status {
            case "pending":
                try await tx.execute("UPDATE oauth_device_codes SET last_polled_at = now() WHERE digest = \(digest)")
                return .failure(OAuthError(
                    status: .badRequest, code: "authorization_pending", description: "The user has not approved the request yet."))
            case "denied":
                return .failure(OAuthError(status: .badRequest, code: "access_denied", description: "The user denied the request."))
            default:
                let scopes = try row.decode(column: "scopes", as: String.self).split(separator: " ").map(String.init)
                let grant = OAuthTokenIssuer.Grant(
                    userID: try row.decode(column: "user_id", as: UUID?.self), clientID: client.id,
                    scopes: scopes, audience: nil, withRefreshToken: client.refreshes(scopes),
                    authTime: try row.decode(column: "auth_time", as: Date?.self))
                // The code is spent and linked to the session in the statement that starts it.
                let issue = OAuthTokenIssuer.Issue(withRefreshToken: grant.withRefreshToken)
                let issued = try await tx.query("""
                    WITH \(tokens.storing(issue, grant)), spent AS (
                        UPDATE oauth_device_codes SET status = 'redeemed', last_polled_at = now(), session_id = \(issue.sessionID)
                        WHERE digest = \(digest)
                    )
                    SELECT \(OAuthTokenIssuer.Issue.answerColumns) FROM session
                    """)
                guard let row = issued.first else { throw PostgresError(.server, message: "an INSERT ... RETURNING returned no row") }
                return .success(try issue.answer(row))
            }
        }
        return try outcome.get()
    }

    private static let unknown = OAuthError.invalidGrant("The device code is unknown.")
}
