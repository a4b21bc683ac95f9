/// A request's query string, decoded on demand (`+` is a space, `%XX` a byte).
public struct QueryParameters: Sendable {
    /// Every name and value, decoded, in the order sent.
    public let pairs: [(name: String, value: String)]

    /// Parses `query` (what follows `?`, or a form body).
    public init(_ query: Substring?) {
        guard let query, !query.isEmpty else { pairs = []; return }
        pairs = query.split(separator: "&", omittingEmptySubsequences: true).map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = PercentDecoding.decode(parts[0], plusIsSpace: true) ?? String(parts[0])
            let value = parts.count > 1 ? (PercentDecoding.decode(parts[1], plusIsSpace: true) ?? String(parts[1])) : ""
            return (name: name, value: value)
        }
    }

    /// The first name or value that decodes to text holding a NUL, if any: C code further down
    /// (libpq, crypt) would cut it there, so every reader refuses such input (`RequestScreening`
    /// for queries; the form readers for bodies, each in its own error shape).
    public var pairHoldingNUL: (name: String, value: String)? {
        pairs.first { $0.name.utf8.contains(0) || $0.value.utf8.contains(0) }
    }

    /// The first value of `name`, or nil.
    public subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// Every value of `name` (`?tag=a&tag=b`).
    public func all(_ name: String) -> [String] {
        pairs.filter { $0.name == name }.map(\.value)
    }

    /// The first value of `name` converted to `T`, or nil when absent; 400 when unconvertible.
    public func get<T: ParameterDecodable>(_ name: String, as type: T.Type) throws -> T? {
        guard let raw = self[name] else { return nil }
        guard let value = T(parameter: raw) else {
            throw Abort(.badRequest, reason: "Invalid query parameter \(name): not a valid \(T.self).")
        }
        return value
    }
}
