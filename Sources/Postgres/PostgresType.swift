/// A PostgreSQL type OID, as libpq passes them for parameters.
public struct PostgresType: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Let the server infer the type from context (used for strings, so a text value can be
    /// compared to any column type).
    public static let unspecified = PostgresType(rawValue: 0)
    public static let bool = PostgresType(rawValue: 16)
    public static let int8 = PostgresType(rawValue: 20)
    public static let int4 = PostgresType(rawValue: 23)
    public static let text = PostgresType(rawValue: 25)
    public static let float8 = PostgresType(rawValue: 701)
    public static let timestamptz = PostgresType(rawValue: 1184)
    public static let uuid = PostgresType(rawValue: 2950)
    public static let bytea = PostgresType(rawValue: 17)
}
