import Foundation
import Postgres

/// The standard claims of `profile` (OpenID Connect Core §5.1) TIL holds for a user: `name`
/// and `preferred_username`, exactly as stored (usernames and names are stored in NFC).
struct UserProfile: Sendable {
    let name: String
    let preferredUsername: String

    static func find(_ userID: UUID, on db: PostgresClient) async throws -> UserProfile? {
        let rows = try await db.query("SELECT name, username FROM users WHERE id = \(userID)")
        guard let row = rows.first else { return nil }
        return UserProfile(name: try row.decode(column: "name"), preferredUsername: try row.decode(column: "username"))
    }
}
