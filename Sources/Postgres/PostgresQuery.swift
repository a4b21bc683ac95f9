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

        /// Splices another query, renumbering its `$n` after the parameters so far: fragments
        /// (a column list, a condition) compose without `unescaped:`.
        public mutating func appendInterpolation(_ fragment: PostgresQuery) {
            sql += fragment.sql.renumberingPlaceholders(by: binds.count)
            binds += fragment.binds
        }

        /// Splices program-chosen text verbatim: identifiers only, never input.
        public mutating func appendInterpolation(unescaped text: String) {
            sql += text
        }
    }
}

extension String {
    /// `$1` → `$(1 + offset)` for every placeholder outside '…' strings and "…" identifiers.
    func renumberingPlaceholders(by offset: Int) -> String {
        guard offset > 0, contains("$") else { return self }
        var output = ""
        output.reserveCapacity(utf8.count + 8)
        var quote: Character?
        var previous: Character = " "
        var index = startIndex
        while index < endIndex {
            let character = self[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "$", !(previous.isLetter || previous.isNumber || previous == "_") {
                let digits = self[index...].dropFirst().prefix { $0.isASCII && $0.isNumber }
                if let number = Int(digits) {
                    output += "$\(number + offset)"
                    index = digits.endIndex
                    previous = "0"
                    continue
                }
            }
            output.append(character)
            previous = character
            index = self.index(after: index)
        }
        return output
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
