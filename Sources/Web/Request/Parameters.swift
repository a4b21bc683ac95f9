/// The values bound to a route's `:name` components, in a small flat array (routes have few).
public struct Parameters: Sendable {
    private var values: [(name: String, value: String)] = []

    public init() {}

    mutating func set(_ name: String, to value: String) {
        values.append((name: name, value: value))
    }

    /// The first parameter whose decoded value holds a NUL (refused before the handler runs).
    var nameOfValueContainingNUL: String? {
        values.first { $0.value.utf8.contains(0) }?.name
    }

    /// The raw (percent-decoded) value of `name`, or nil.
    public func get(_ name: String) -> String? {
        values.first { $0.name == name }?.value
    }

    /// The value of `name` converted to `T`; a missing or unconvertible value is a 400
    /// that names the parameter.
    public func require<T: ParameterDecodable>(_ name: String, as type: T.Type = String.self) throws -> T {
        guard let raw = get(name) else {
            throw Abort(.internalServerError, reason: "No parameter '\(name)' on this route.")
        }
        guard let value = T(parameter: raw) else {
            throw Abort(.badRequest, reason: "Invalid \(name): '\(raw.prefix(64))' is not a valid \(T.self).")
        }
        return value
    }
}
