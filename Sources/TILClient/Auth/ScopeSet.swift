/// A set of scopes: what one token may do, and the key of the token cache — a client holds
/// one token per scope set (a narrow `acronyms:write` token beside an `account` one).
/// Stored as the names in the server's order; names this client does not know are dropped.
public struct ScopeSet: Hashable, Sendable, Codable, CustomStringConvertible {
    public let scopes: Set<Scope>

    public init(_ scopes: some Sequence<Scope>) {
        self.scopes = Set(scopes)
    }

    /// Every scope: what a login grants unless it asks for fewer.
    public static let all = ScopeSet(Scope.allCases)

    /// From names as the server writes them; unknown names are skipped.
    public init(names: some Sequence<String>) {
        self.init(names.compactMap(Scope.init(rawValue:)))
    }

    public func contains(_ scope: Scope) -> Bool { scopes.contains(scope) }

    /// The names in the server's canonical order.
    public var names: [String] { scopes.sorted().map(\.rawValue) }

    /// `acronyms:write account`: the form of `?scope=`.
    public var description: String { names.joined(separator: " ") }

    public init(from decoder: any Decoder) throws {
        self.init(names: try [String](from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try names.encode(to: encoder)
    }
}
