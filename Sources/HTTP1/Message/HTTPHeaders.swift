/// The header fields of a request or response, in wire order.
///
/// An array of pairs rather than a dictionary: duplicates survive (so the parser can reject
/// differing `Content-Length`s), order is kept, and small header sets stay cheap.
/// Names compare case-insensitively (RFC 9110 §5.1).
public struct HTTPHeaders: Sendable, Equatable {
    public private(set) var fields: [(name: String, value: String)]

    public init() { fields = [] }

    public init(_ pairs: [(String, String)]) {
        fields = pairs.map { (name: $0.0, value: $0.1) }
    }

    public var count: Int { fields.count }

    public mutating func reserveCapacity(_ capacity: Int) { fields.reserveCapacity(capacity) }

    /// The first value of `name`, or nil.
    public subscript(name: String) -> String? {
        for field in fields where field.name.equalsASCIICaseInsensitive(name) { return field.value }
        return nil
    }

    /// Every value of `name`, in order.
    public func values(for name: String) -> [String] {
        fields.compactMap { $0.name.equalsASCIICaseInsensitive(name) ? $0.value : nil }
    }

    /// How many fields are named `name` (without collecting their values).
    public func count(of name: String) -> Int {
        var count = 0
        for field in fields where field.name.equalsASCIICaseInsensitive(name) { count += 1 }
        return count
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Appends a field, keeping any existing ones of the same name.
    public mutating func add(name: String, value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field named `name` with a single one.
    public mutating func replaceOrAdd(name: String, value: String) {
        remove(name: name)
        fields.append((name: name, value: value))
    }

    public mutating func remove(name: String) {
        fields.removeAll { $0.name.equalsASCIICaseInsensitive(name) }
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}

extension HTTPHeaders: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }
}

extension HTTPHeaders: Sequence {
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }
}
