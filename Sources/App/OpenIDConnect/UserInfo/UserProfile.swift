import Foundation
import Postgres

/// The standard claims of `profile` (OpenID Connect Core §5.1) TIL holds for a user: `name`
/// and `preferred_username`, exactly as stored (usernames and names are stored in NFC). Read
/// in the statement that spends a code or finds a refresh token's grant (`columns`), so an ID
/// token costs no round trip of its own.
struct UserProfile: Sendable {
    let name: String
    let preferredUsername: String

    /// `profile_name` and `profile_username` of the user whose id is the SQL `userID`.
    static func columns(ofUserIn userID: PostgresQuery) -> PostgresQuery {
        """
        (SELECT name FROM users WHERE id = \(userID)) AS profile_name,
        (SELECT username FROM users WHERE id = \(userID)) AS profile_username
        """
    }

    /// The profile in a row holding `columns`; nil when the user is gone.
    init?(_ row: PostgresRow) throws {
        guard let name = try row.decode(column: "profile_name", as: String?.self),
            let username = try row.decode(column: "profile_username", as: String?.self)
        else { return nil }
        self.name = name
        preferredUsername = username
    }
}
