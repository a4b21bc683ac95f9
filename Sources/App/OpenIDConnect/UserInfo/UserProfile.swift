import Foundation
import Postgres

/// The standard claims of `profile` and `email` (OpenID Connect Core §5.1) TIL holds for a
/// user: `name` and `preferred_username`, exactly as stored (usernames and names are stored in
/// NFC), and the account's address when it is verified (an unverified one is never a claim).
/// Read in the statement that spends a code or finds a refresh token's grant (`columns`), so
/// an ID token costs no round trip of its own.
struct UserProfile: Sendable {
    let name: String
    let preferredUsername: String
    /// The verified address; nil when the account has none, or has not verified it.
    let email: String?

    /// `profile_name`, `profile_username` and `profile_email` of the user whose id is the SQL `userID`.
    static func columns(ofUserIn userID: PostgresQuery) -> PostgresQuery {
        """
        (SELECT name FROM users WHERE id = \(userID)) AS profile_name,
        (SELECT username FROM users WHERE id = \(userID)) AS profile_username,
        (SELECT email FROM users WHERE id = \(userID) AND email_verified_at IS NOT NULL) AS profile_email
        """
    }

    /// The profile in a row holding `columns`; nil when the user is gone.
    init?(_ row: PostgresRow) throws {
        guard let name = try row.decode(column: "profile_name", as: String?.self),
            let username = try row.decode(column: "profile_username", as: String?.self)
        else { return nil }
        self.name = name
        preferredUsername = username
        email = try row.decode(column: "profile_email", as: String?.self)
    }
}
