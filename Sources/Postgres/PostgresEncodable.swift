public import Foundation

/// A Swift value that can be sent as a query parameter, in PostgreSQL's text format.
public protocol PostgresEncodable: Sendable {
    static var postgresType: PostgresType { get }
    /// The text form PostgreSQL parses for `postgresType`; nil means NULL.
    var postgresText: String? { get }
}

extension String: PostgresEncodable {
    public static var postgresType: PostgresType { .unspecified }
    public var postgresText: String? { self }
}

extension Substring: PostgresEncodable {
    public static var postgresType: PostgresType { .unspecified }
    public var postgresText: String? { String(self) }
}

extension Int: PostgresEncodable {
    public static var postgresType: PostgresType { .int8 }
    public var postgresText: String? { String(self) }
}

extension Int64: PostgresEncodable {
    public static var postgresType: PostgresType { .int8 }
    public var postgresText: String? { String(self) }
}

extension Int32: PostgresEncodable {
    public static var postgresType: PostgresType { .int4 }
    public var postgresText: String? { String(self) }
}

extension Bool: PostgresEncodable {
    public static var postgresType: PostgresType { .bool }
    public var postgresText: String? { self ? "t" : "f" }
}

extension Double: PostgresEncodable {
    public static var postgresType: PostgresType { .float8 }
    public var postgresText: String? {
        if isNaN { return "NaN" }
        if isInfinite { return self > 0 ? "Infinity" : "-Infinity" }
        return String(self)
    }
}

extension UUID: PostgresEncodable {
    public static var postgresType: PostgresType { .uuid }
    public var postgresText: String? { UUIDText.format(self) }
}

extension Date: PostgresEncodable {
    public static var postgresType: PostgresType { .timestamptz }
    /// Microseconds since the Unix epoch, as PostgreSQL reads them back: `to_timestamp` precision.
    public var postgresText: String? { PostgresTimestamp.format(self) }
}

extension Array: PostgresEncodable where Element == UInt8 {
    public static var postgresType: PostgresType { .bytea }
    public var postgresText: String? {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
        for byte in self { text += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: text, as: UTF8.self)
    }
}
