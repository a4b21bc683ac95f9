import Foundation
import Postgres

/// The consent page's side of `oauth_grants`: the scopes a user approved for a client so far.
/// A request within them skips the page; approving a new scope stores the union, in one
/// statement, so two approvals racing both land.
extension GrantRepository {
    /// The scopes `userID` approved for `clientID`; empty when none.
    func approved(userID: UUID, clientID: String) async throws -> Set<String> {
        let rows = try await db.query("SELECT scopes FROM oauth_grants WHERE user_id = \(userID) AND client_id = \(clientID)")
        guard let row = rows.first else { return [] }
        return Set(try row.decode(column: "scopes", as: String.self).split(separator: " ").map(String.init))
    }

    /// Adds `scopes` to what `userID` approved for `clientID`.
    func approve(_ scopes: [String], userID: UUID, clientID: String) async throws {
        try await db.execute("""
            INSERT INTO oauth_grants (user_id, client_id, scopes) VALUES (\(userID), \(clientID), \(scopes.joined(separator: " ")))
            ON CONFLICT (user_id, client_id) DO UPDATE SET scopes = (
                SELECT string_agg(DISTINCT name, ' ' ORDER BY name)
                FROM unnest(string_to_array(oauth_grants.scopes || ' ' || EXCLUDED.scopes, ' ')) AS name
                WHERE name <> ''
            )
            """)
    }

}
