/// What an environment variable accepts, as its declaration states it: the reader parses by
/// it, and the help, the README table and every error message quote its `description`.
public enum AcceptedValues: Sendable, Equatable, CustomStringConvertible {
    /// A whole number in the range.
    case number(ClosedRange<Int>)
    /// A whole number of seconds in the range.
    case seconds(ClosedRange<Int>)
    /// A TCP port, 1 to 65535.
    case port
    /// A port to listen on: 1 to 65535, or 0 for one the kernel picks.
    case listeningPort
    /// One of these words, in any case.
    case oneOf([String])
    /// `on` or `off`, in any case.
    case onOff
    /// Anything its reader checks itself, described in words that follow "must be".
    case described(String)

    /// Reads after "must be": "PORT must be a port number from 1 to 65535".
    public var description: String {
        switch self {
        case .number(let range): "a whole number from \(range.lowerBound) to \(range.upperBound)"
        case .seconds(let range): "a whole number of seconds from \(range.lowerBound) to \(range.upperBound)"
        case .port: "a port number from \(Self.ports.lowerBound) to \(Self.ports.upperBound)"
        case .listeningPort: "a port number from 0 (any free one) to \(Self.ports.upperBound)"
        case .oneOf(let words): "one of " + words.joined(separator: ", ")
        case .onOff: "on or off"
        case .described(let words): words
        }
    }

    static let ports = 1...65535

    /// The range of a numeric kind; nil for the others.
    var range: ClosedRange<Int>? {
        switch self {
        case .number(let range), .seconds(let range): range
        case .port: Self.ports
        case .listeningPort: 0...Self.ports.upperBound
        default: nil
        }
    }
}
