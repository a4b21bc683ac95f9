/// SQL with its values kept apart: every `\(value)` becomes a `$n` placeholder and a bound
/// parameter, so a query built this way cannot be injected.
///
/// ```swift
/// try await db.query("SELECT id, name FROM users WHERE username = \(username)")
/// ```
/// `\(unescaped: "...")` splices text verbatim — the one visible, greppable escape hatch,
/// for identifiers chosen by the program, never for input.
public struct PostgresQuery: Sendable, ExpressibleByStringInterpolation {
    public private(set) var sql: String
    public private(set) var binds: [PostgresBind]

    public init(unsafeSQL sql: String, binds: [PostgresBind] = []) {
        self.sql = sql
        self.binds = binds
    }

    public init(stringLiteral value: String) {
        self.init(unsafeSQL: value)
    }

    public init(stringInterpolation: StringInterpolation) {
        self.init(unsafeSQL: stringInterpolation.sql, binds: stringInterpolation.binds)
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        var sql = ""
        var binds: [PostgresBind] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity + interpolationCount * 3)
            binds.reserveCapacity(interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            sql += literal
        }

        public mutating func appendInterpolation(_ value: some PostgresEncodable) {
            binds.append(PostgresBind(value))
            sql += "$\(binds.count)"
        }

        public mutating func appendInterpolation<Value: PostgresEncodable>(_ value: Value?) {
            binds.append(value.map(PostgresBind.init) ?? PostgresBind(null: Value.postgresType))
            sql += "$\(binds.count)"
        }

        public mutating func appendInterpolation(unescaped text: String) {
            sql += text
        }
    }
}

/// One bound parameter: its text form (nil for NULL) and its PostgreSQL type OID.
public struct PostgresBind: Sendable {
    public let text: String?
    public let type: PostgresType

    init<Value: PostgresEncodable>(_ value: Value) {
        text = value.postgresText
        type = Value.postgresType
    }

    init(null type: PostgresType) {
        text = nil
        self.type = type
    }
}
