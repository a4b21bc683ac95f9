/// A PostgreSQL failure. `description` names what failed and the server's message, never the
/// query's text or bound values (which may hold secrets).
public struct PostgresError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable, Equatable {
        /// The server cannot be reached or refused the login.
        case connectionFailed
        /// Every pooled connection stayed busy for the whole acquire timeout.
        case databaseBusy
        /// The server answered the statement with an error (see `sqlState`).
        case server
        /// A column could not be decoded into the requested Swift type.
        case decoding
        /// The connection broke during the statement, or the client was shut down.
        case closed
    }

    public var kind: Kind
    public var sqlState: SQLState?
    /// The constraint a violation (23xxx) broke, as PostgreSQL names it (`users_username_key`):
    /// what lets the app say which field was at fault.
    public var constraint: String?
    public var message: String
    /// The statement never reached the server (the connection was found broken before it
    /// went out): running it again elsewhere cannot run it twice.
    var neverSent = false

    public init(_ kind: Kind, sqlState: SQLState? = nil, constraint: String? = nil, message: String) {
        self.kind = kind
        self.sqlState = sqlState
        self.constraint = constraint
        self.message = message
    }

    /// True when the database is unavailable rather than the statement wrong (→ 503).
    public var isUnavailable: Bool {
        kind == .connectionFailed || kind == .databaseBusy || kind == .closed
    }

    public var description: String {
        switch kind {
        case .server: "PostgreSQL error \(sqlState?.rawValue ?? "?"): \(message)"
        default: "PostgreSQL \(kind): \(message)"
        }
    }
}

/// A five-character SQLSTATE code (PostgreSQL manual, appendix A).
public struct SQLState: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let uniqueViolation = SQLState(rawValue: "23505")
    public static let foreignKeyViolation = SQLState(rawValue: "23503")
    public static let notNullViolation = SQLState(rawValue: "23502")
    public static let checkViolation = SQLState(rawValue: "23514")
    public static let invalidTextRepresentation = SQLState(rawValue: "22P02")
    public static let stringDataRightTruncation = SQLState(rawValue: "22001")
    /// A value too big for a limit of the server, e.g. a btree index entry over ~2.7 KB.
    public static let programLimitExceeded = SQLState(rawValue: "54000")
    public static let undefinedTable = SQLState(rawValue: "42P01")
    public static let adminShutdown = SQLState(rawValue: "57P01")
    public static let queryCanceled = SQLState(rawValue: "57014")

    public var description: String { rawValue }
}
