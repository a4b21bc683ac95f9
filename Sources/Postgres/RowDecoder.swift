import Foundation

/// Decodes a flat `Decodable` struct from a row, one property per column.
struct RowDecoder: Decoder {
    let row: PostgresRow
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(RowContainer(row: row))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw PostgresError(.decoding, message: "A row decodes into a struct, not an array.")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw PostgresError(.decoding, message: "A row decodes into a struct; use decode(column:as:) for one value.")
    }
}

private struct RowContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let row: PostgresRow
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { row.columns.names.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { row.columns.index[key.stringValue] != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        row.values[try index(of: key)] == nil
    }

    // Concrete overloads: the common column types decode without a dynamic cast.
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try row.decodeValue(at: index(of: key), as: type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try row.decodeValue(at: index(of: key), as: type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try row.decodeValue(at: index(of: key), as: type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try row.decodeValue(at: index(of: key), as: type) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try row.decodeValue(at: index(of: key), as: type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try row.decodeValue(at: index(of: key), as: type) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let position = try index(of: key)
        if T.self == UUID.self {
            return unsafeBitCast(try row.decodeValue(at: position, as: UUID.self), to: T.self)
        }
        guard let decodable = T.self as? any PostgresDecodable.Type else {
            throw PostgresError(.decoding, message: "Column '\(key.stringValue)': \(T.self) is not a PostgresDecodable type.")
        }
        return try decodeValue(decodable, at: position) as! T  // swiftlint:disable:this force_cast — T.self is that type
    }

    private func decodeValue<D: PostgresDecodable>(_ type: D.Type, at position: Int) throws -> D {
        try row.decodeValue(at: position, as: type)
    }

    private func index(of key: Key) throws -> Int {
        guard let index = row.columns.index[key.stringValue] else {
            throw PostgresError(.decoding, message: "No column '\(key.stringValue)' in the result.")
        }
        return index
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw PostgresError(.decoding, message: "Column '\(key.stringValue)': nested values are not supported.")
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw PostgresError(.decoding, message: "Column '\(key.stringValue)': arrays are not supported.")
    }

    func superDecoder() throws -> any Decoder { RowDecoder(row: row) }
    func superDecoder(forKey key: Key) throws -> any Decoder { RowDecoder(row: row) }
}
