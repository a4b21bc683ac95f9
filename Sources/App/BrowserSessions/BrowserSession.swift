import Foundation

/// A login on TIL's own pages, as its cookie proved it: who (and whether an administrator, read
/// in the same statement, so the authorization endpoint never reads the user's row again), since
/// when (an authorization code's `auth_time`), and how long the cookie has left.
struct BrowserSession: Sendable {
    let id: UUID
    let user: User
    /// Whether the user may be granted `clients:write` (`users.is_admin`).
    let isAdmin: Bool
    /// When the person last proved who they are: the sign-in (`sessions.auth_time`).
    let authTime: Date
    /// Seconds since then, by the database's clock (`RecentAuthentication`).
    let secondsSinceAuthentication: Double
    /// Seconds until the session ends unless used again (the cookie's `Max-Age`).
    let secondsLeft: Int
    /// The cookie's value, to bind CSRF tokens to it and to send it again with a fresh expiry.
    let cookieValue: String
}
