/// One result row: text values by column, decoded on demand, one column at a time.
///
/// The only way to read a row: measured against a `Decoder` over rows (2026-11-23, 500 000
/// rows of four columns), column decoding took 15–40 % less CPU (Benchmarks/RESULTS.md).
public struct PostgresRow: Sendable {
    let columns: PostgresColumns
    let values: [String?]

    /// One column's value as `T` (use an optional `T` for nullable columns).
    public func decode<T: PostgresDecodable>(column: String, as type: T.Type = T.self) throws -> T {
        guard let index = columns.index[column] else {
            throw PostgresError(.decoding, message: "No column '\(column)' in the result.")
        }
        return try decodeValue(at: index, as: type)
    }

    public func decode<T: PostgresDecodable>(column: String, as type: T?.Type) throws -> T? {
        guard let index = columns.index[column] else {
            throw PostgresError(.decoding, message: "No column '\(column)' in the result.")
        }
        guard values[index] != nil else { return nil }
        return try decodeValue(at: index, as: T.self)
    }

    func decodeValue<T: PostgresDecodable>(at index: Int, as type: T.Type) throws -> T {
        guard let text = values[index] else {
            throw PostgresError(.decoding, message: "Column '\(columns.names[index])' is NULL; decode it as \(T.self)?.")
        }
        guard let value = T(postgresText: text) else {
            throw PostgresError(.decoding, message: "Column '\(columns.names[index])' (\(columns.types[index].name)) is not a valid \(T.self).")
        }
        return value
    }
}

/// The column names and types of a result, shared by all its rows.
final class PostgresColumns: Sendable {
    let names: [String]
    /// Kept as OIDs; a type's name is only spelled out in a decoding error.
    let types: [PostgresType]
    let index: [String: Int]

    init(names: [String], types: [PostgresType]) {
        self.names = names
        self.types = types
        var index: [String: Int] = [:]
        for (position, name) in names.enumerated() where index[name] == nil { index[name] = position }
        self.index = index
    }
}
