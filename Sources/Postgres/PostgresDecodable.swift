public import Foundation

/// A Swift type a column's text value can be decoded into.
public protocol PostgresDecodable: Sendable {
    /// Parses PostgreSQL's text output; nil when the text is not a valid value of this type.
    init?(postgresText text: String)
}

extension String: PostgresDecodable {
    public init?(postgresText text: String) { self = text }
}

extension Int: PostgresDecodable {
    public init?(postgresText text: String) { self.init(text) }
}

extension Int64: PostgresDecodable {
    public init?(postgresText text: String) { self.init(text) }
}

extension Int32: PostgresDecodable {
    public init?(postgresText text: String) { self.init(text) }
}

extension Bool: PostgresDecodable {
    public init?(postgresText text: String) {
        switch text {
        case "t", "true": self = true
        case "f", "false": self = false
        default: return nil
        }
    }
}

extension Double: PostgresDecodable {
    public init?(postgresText text: String) {
        switch text {
        case "NaN": self = .nan
        case "Infinity": self = .infinity
        case "-Infinity": self = -.infinity
        default: self.init(text)
        }
    }
}

extension UUID: PostgresDecodable {
    public init?(postgresText text: String) {
        guard let uuid = UUIDText.parse(text) else { return nil }
        self = uuid
    }
}

extension Date: PostgresDecodable {
    public init?(postgresText text: String) {
        guard let date = PostgresTimestamp.parse(text) else { return nil }
        self = date
    }
}

/// `bytea` in PostgreSQL's hex output (`\x0a1b…`, the default `bytea_output`).
extension Array: PostgresDecodable where Element == UInt8 {
    public init?(postgresText text: String) {
        let digits = Array(text.utf8)
        guard digits.count >= 2, digits[0] == UInt8(ascii: "\\"), digits[1] == UInt8(ascii: "x"), digits.count.isMultiple(of: 2)
        else { return nil }
        func nibble(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2 - 1)
        for index in stride(from: 2, to: digits.count, by: 2) {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        self = bytes
    }
}
