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
