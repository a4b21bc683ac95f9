/// A set of scopes: what one token may do, and the key of the token cache — a client holds
/// one token per scope set (a narrow `acronyms:write` token beside an `account` one).
/// Stored as the names in the server's order, scopes this client does not know included: a
/// newer server's scope is kept and sent back, never dropped.
public struct ScopeSet: Hashable, Sendable, Codable, CustomStringConvertible {
    public let scopes: Set<Scope>

    public init(_ scopes: some Sequence<Scope>) {
        self.scopes = Set(scopes)
    }

    /// Every scope this client knows: what a login grants unless it asks for fewer.
    public static let all = ScopeSet(Scope.known)

    public func contains(_ scope: Scope) -> Bool { scopes.contains(scope) }

    /// The names in the server's canonical order.
    public var names: [String] { scopes.sorted().map(\.rawValue) }

    /// `acronyms:write account`: the form of `?scope=`.
    public var description: String { names.joined(separator: " ") }

    public init(from decoder: any Decoder) throws {
        self.init(try [Scope](from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try scopes.sorted().encode(to: encoder)
    }
}
