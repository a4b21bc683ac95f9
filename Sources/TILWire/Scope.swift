/// What a bearer token may do (RFC 6750 §3.1). A login grants every scope unless the client
/// asks for fewer with `?scope=` (names separated by spaces); a refreshed pair keeps the
/// login's scopes. Reads are public and need none; `GET /api/users/me` and logout need only a
/// valid token.
///
/// Open, not an enum: a newer server grants scopes this version has never heard of (some
/// defined at run time), and a client must still decode a token that carries them, keep them
/// and send them back. The constants are the scopes this version knows.
public struct Scope: RawRepresentable, Codable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Create, update and delete acronyms; link and unlink categories.
    public static let acronymsWrite = Scope(rawValue: "acronyms:write")
    /// Create categories.
    public static let categoriesWrite = Scope(rawValue: "categories:write")
    /// Create users.
    public static let usersWrite = Scope(rawValue: "users:write")
    /// Manage the account itself: sessions, logout everywhere, password change.
    public static let account = Scope(rawValue: "account")
    /// Register OAuth clients (`POST /oauth/register`): granted to administrators only.
    public static let clientsWrite = Scope(rawValue: "clients:write")

    /// The scopes this version knows, in the server's canonical order.
    public static let known: [Scope] = [.acronymsWrite, .categoriesWrite, .usersWrite, .account]

    public var isKnown: Bool { Self.known.contains(self) }

    public var description: String { rawValue }

    /// Canonical order: the known scopes as `known` lists them, then any others by name.
    public static func < (lhs: Scope, rhs: Scope) -> Bool {
        switch (known.firstIndex(of: lhs), known.firstIndex(of: rhs)) {
        case let (left?, right?): left < right
        case (.some, nil): true
        case (nil, .some): false
        case (nil, nil): lhs.rawValue < rhs.rawValue
        }
    }
}
