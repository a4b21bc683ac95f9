import Web

/// The server's readings of scope names: from a login's `?scope=`, and from a session row.
extension Scope {
    /// Every scope TIL's API grants: the `known` ones any user may hold, and `clients:write`,
    /// which only an administrator gets and only when asking for it by name.
    static let grantable = known + [.clientsWrite]

    /// Scopes from OAuth's space-separated form (`"acronyms:write account"`), in canonical
    /// order without duplicates. Unknown or missing names are the client's mistake: a 400 that
    /// names `invalid_scope` (RFC 6749 §5.2).
    static func parse(_ text: String) throws -> [Scope] {
        let names = text.split(whereSeparator: { $0 == " " || $0 == "+" })
        guard !names.isEmpty else { throw invalidScope("no scope was named") }
        var wanted = Set<Scope>()
        for name in names {
            let scope = Scope(rawValue: String(name))
            guard name.utf8.count <= 64, grantable.contains(scope) else { throw invalidScope("unknown scope '\(name.prefix(64))'") }
            wanted.insert(scope)
        }
        return grantable.filter(wanted.contains)
    }

    /// Scopes as stored in a session row: their names joined by spaces. Names the server no
    /// longer knows are dropped, never granted.
    static func stored(_ text: String) -> [Scope] {
        let names = Set(text.split(separator: " ").map(String.init))
        return grantable.filter { names.contains($0.rawValue) }
    }

    static func storageText(_ scopes: [Scope]) -> String {
        scopes.map(\.rawValue).joined(separator: " ")
    }

    static func invalidScope(_ detail: String) -> Abort {
        Abort(.badRequest, reason: "invalid_scope: \(detail); known scopes: \(grantable.map(\.rawValue).joined(separator: ", ")).")
    }
}
