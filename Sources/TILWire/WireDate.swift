public import Foundation

/// A moment as the API writes it: ISO 8601 in UTC, in whole seconds (`2026-11-23T13:00:00Z`),
/// whatever `dateEncodingStrategy` the coder has — the format belongs to the wire, not to the
/// coder. On a `Date` property: `@WireDate public var expiresAt: Date`.
///
/// Whole seconds because the server stores expiries truncated to the second: the time a client
/// is shown is the time the server enforces.
@propertyWrapper
public struct WireDate: Codable, Sendable, Hashable {
    public var wrappedValue: Date

    public init(wrappedValue: Date) {
        self.wrappedValue = wrappedValue
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = Self.date(from: text) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "'\(text.prefix(40))' is not an ISO 8601 time"))
        }
        wrappedValue = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Self.text(of: wrappedValue))
    }

    /// `2026-11-23T13:00:00Z`: the fraction of a second is dropped, never rounded up.
    public static func text(of date: Date) -> String {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)).formatted(.iso8601)
    }

    /// The moment in `text`; fractional seconds are read too, from a server that writes them.
    public static func date(from text: String) -> Date? {
        (try? Date(text, strategy: .iso8601))
            ?? (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
    }
}
