/// Who a request is authenticated as, keyed by type. A value inside `Request`, so a
/// middleware logs in on its copy and passes that copy on.
public struct AuthStorage: Sendable {
    private var values: [ObjectIdentifier: any Authenticatable] = [:]

    public init() {}

    public mutating func login<A: Authenticatable>(_ value: A) {
        values[ObjectIdentifier(A.self)] = value
    }

    public func get<A: Authenticatable>(_ type: A.Type = A.self) -> A? {
        values[ObjectIdentifier(A.self)] as? A
    }

    /// The authenticated `A`, or a 401.
    public func require<A: Authenticatable>(_ type: A.Type = A.self) throws -> A {
        guard let value = get(type) else { throw Abort(.unauthorized) }
        return value
    }
}
