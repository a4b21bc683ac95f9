/// What a bearer token may do (RFC 6750 §3.1). A login grants every scope unless the client
/// asks for fewer with `?scope=` (names separated by spaces); a refreshed pair keeps the
/// login's scopes. Reads are public and need none; `GET /api/users/me` and logout need only a
/// valid token.
public enum Scope: String, CaseIterable, Codable, Sendable, Comparable {
    /// Create, update and delete acronyms; link and unlink categories.
    case acronymsWrite = "acronyms:write"
    /// Create categories.
    case categoriesWrite = "categories:write"
    /// Create users.
    case usersWrite = "users:write"
    /// Manage the account itself: sessions, logout everywhere, password change.
    case account

    /// In the order `allCases` lists them, the server's canonical order.
    public static func < (lhs: Scope, rhs: Scope) -> Bool {
        lhs.rank < rhs.rank
    }

    private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }
}
