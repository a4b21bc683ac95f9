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
    ///
    /// Scans UTF-8 bytes, not `Character`s: composing a statement from fragments happens per
    /// request, and every byte that matters here (quotes, `$`, digits) is ASCII, which never
    /// occurs inside a multi-byte sequence. A `$` right after an identifier byte (a letter,
    /// digit, `_`, or any byte of a non-ASCII character, as PostgreSQL's lexer counts them)
    /// belongs to the identifier and is left alone.
    func renumberingPlaceholders(by offset: Int) -> String {
        guard offset > 0 else { return self }
        let bytes = Array(utf8)
        guard bytes.contains(UInt8(ascii: "$")) else { return self }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 8)
        var quote: UInt8?
        var previous = UInt8(ascii: " ")
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
            } else if byte == UInt8(ascii: "$"), !previous.continuesIdentifier {
                var end = index + 1
                var number = 0
                while end < bytes.count, bytes[end].isDigit {
                    number = number * 10 + Int(bytes[end] - UInt8(ascii: "0"))
                    end += 1
                }
                if end > index + 1 {
                    output.append(contentsOf: "$\(number + offset)".utf8)
                    index = end
                    previous = UInt8(ascii: "0")
                    continue
                }
            }
            output.append(byte)
            previous = byte
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }

    /// A byte PostgreSQL's lexer lets continue an identifier: letters, digits, `_`, `$`, and
    /// every byte of a non-ASCII character.
    fileprivate var continuesIdentifier: Bool {
        isDigit || self >= 0x80 || self == UInt8(ascii: "_") || self == UInt8(ascii: "$")
            || (self | 0x20 >= UInt8(ascii: "a") && self | 0x20 <= UInt8(ascii: "z"))
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
