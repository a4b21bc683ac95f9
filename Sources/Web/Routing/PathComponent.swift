/// One segment of a route's path: `"api"`, `":acronymID"`, `"*"` (any one segment) or
/// `"**"` (the rest of the path).
public enum PathComponent: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    case constant(String)
    case parameter(String)
    case anything
    case catchall

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public init(_ value: String) {
        switch value {
        case "*": self = .anything
        case "**": self = .catchall
        case let name where name.hasPrefix(":"): self = .parameter(String(name.dropFirst()))
        default: self = .constant(value)
        }
    }

    public var description: String {
        switch self {
        case .constant(let value): value
        case .parameter(let name): ":" + name
        case .anything: "*"
        case .catchall: "**"
        }
    }
}

extension Array where Element == PathComponent {
    /// `/api/acronyms/:acronymID`
    public var string: String { "/" + map(\.description).joined(separator: "/") }
}

extension Sequence where Element == String {
    /// Splits strings like `"api/users"` into components, so `get("api/users")` works too.
    var pathComponents: [PathComponent] {
        flatMap { $0.split(separator: "/").map { PathComponent(String($0)) } }
    }
}
