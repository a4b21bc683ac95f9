public import Foundation

/// `WireDate` for a moment that may be absent: `null` or a missing key decode as nil, and nil
/// is left out. On a property: `@OptionalWireDate public var authTime: Date?`.
@propertyWrapper
public struct OptionalWireDate: Codable, Sendable, Hashable {
    public var wrappedValue: Date?

    public init(wrappedValue: Date?) {
        self.wrappedValue = wrappedValue
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try WireDate(from: decoder).wrappedValue
    }

    public func encode(to encoder: any Encoder) throws {
        guard let wrappedValue else {
            var container = encoder.singleValueContainer()
            return try container.encodeNil()
        }
        try WireDate(wrappedValue: wrappedValue).encode(to: encoder)
    }
}

extension KeyedEncodingContainer {
    /// Nil is left out (the synthesized encoder would write `null`): the wire of a field a
    /// value does not have stays what it was before the field existed.
    public mutating func encode(_ value: OptionalWireDate, forKey key: Key) throws {
        guard value.wrappedValue != nil else { return }
        try encodeIfPresent(value, forKey: key)
    }
}

extension KeyedDecodingContainer {
    /// A missing key is nil too (the synthesized decoder would call it an error): a server
    /// older than the field does not send it.
    public func decode(_ type: OptionalWireDate.Type, forKey key: Key) throws -> OptionalWireDate {
        try decodeIfPresent(type, forKey: key) ?? OptionalWireDate(wrappedValue: nil)
    }
}
