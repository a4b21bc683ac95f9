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

    /// The SQL name of the types TIL uses, for decoding errors ("uuid", not "oid 2950").
    var name: String {
        switch self {
        case .bool: "boolean"
        case .int8: "bigint"
        case .int4: "integer"
        case .text: "text"
        case .float8: "double precision"
        case .timestamptz: "timestamp with time zone"
        case .uuid: "uuid"
        case .bytea: "bytea"
        case PostgresType(rawValue: 21): "smallint"
        case PostgresType(rawValue: 1043): "varchar"
        case PostgresType(rawValue: 1700): "numeric"
        default: "type oid \(rawValue)"
        }
    }
}
