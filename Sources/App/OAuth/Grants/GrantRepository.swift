import Foundation
import Postgres
import Web

/// The consent a user gave each client (`oauth_grants`, written by the consent page), as the
/// user sees and withdraws it.
struct GrantRepository: Sendable {
    let db: PostgresClient

    /// One remembered consent, as `GET /api/users/me/grants` lists it.
    struct Grant: Content {
        let clientID: String
        let clientName: String
        let scopes: [String]
        @WireDate var createdAt: Date
    }

    /// The user's grants, oldest first.
    func grants(of userID: UUID) async throws -> [Grant] {
        try await db.query("""
            SELECT g.client_id, c.name, g.scopes, date_trunc('second', g.created_at) AS created_at
            FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id
            WHERE g.user_id = \(userID) ORDER BY g.created_at, g.client_id
            """).map { row in
            Grant(
                clientID: try row.decode(column: "client_id"), clientName: try row.decode(column: "name"),
                scopes: try row.decode(column: "scopes", as: String.self).split(separator: " ").map(String.init),
                createdAt: try row.decode(column: "created_at"))
        }
    }

    /// Withdraws the user's grant to `clientID` and ends every session that client holds for
    /// the user, in one statement. False when there was neither a grant nor a live session.
    func withdraw(clientID: String, of userID: UUID) async throws -> Bool {
        guard !clientID.isEmpty, clientID.utf8.count <= 128 else { return false }
        let rows = try await db.query("""
            WITH gone AS (
                DELETE FROM oauth_grants WHERE user_id = \(userID) AND client_id = \(clientID) RETURNING 1
            ), ended AS (
                UPDATE sessions SET revoked_at = now()
                WHERE user_id = \(userID) AND client_id = \(clientID) AND revoked_at IS NULL RETURNING 1
            )
            SELECT (SELECT count(*) FROM gone)::int + (SELECT count(*) FROM ended)::int AS n
            """)
        return try (rows.first?.decode(column: "n", as: Int.self) ?? 0) > 0
    }
}
