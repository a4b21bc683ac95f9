import Foundation
import Threads

/// Where and how to connect, as plain values or parsed from a URL. Reading the environment is
/// the app's business (TIL's `ConfigReader`); this module only takes what comes out of it.
public struct PostgresConfiguration: Sendable {
    /// A URL or one of its parameters that cannot be used; the message never holds the password.
    public struct InvalidURL: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// libpq's `sslmode`, passed through unchanged: `verify-ca` and `verify-full` check the
    /// server's certificate (against `tlsRootCertificate`, else `~/.postgresql/root.crt`).
    public enum TLSMode: String, Sendable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"

        /// The mode a URL names; an unknown name is an error, never a silently weaker mode.
        public init(parsing text: String) throws(InvalidURL) {
            guard let mode = TLSMode(rawValue: text) else {
                throw InvalidURL(description: "invalid sslmode '\(text)': expected one of \(Self.names)")
            }
            self = mode
        }

        static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
    }

    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    /// A unix-socket directory instead of TCP (`?host=/var/run/postgresql`).
    public var unixSocketDirectory: String?
    public var tls: TLSMode
    /// The CA certificate file that `verify-ca`/`verify-full` check against (`?sslrootcert=`).
    public var tlsRootCertificate: String?
    /// Connections shared out over the event loops that use the client (one per core): each
    /// loop opens at most `poolSize / cores` (rounded up), and off-loop callers are served by
    /// `min(cores, poolSize)` loops of the client's own. Default 8 per core (16 at least): a
    /// loop keeps that many statements in flight. With one round trip per bearer write
    /// (issue 22), 16 on 2 cores gave creates 10 % more than 8 and one-row reads the same;
    /// 32 gave creates no more, at a p99 four times as long (`scripts/bench-pool.sh`).
    public var poolSize: Int
    /// How long a query waits for a free connection before `databaseBusy`.
    public var acquireTimeout: Duration
    public var connectTimeout: Duration
    /// Named prepared statements, parsed once per connection. Off (`?statement_cache=off`,
    /// `DATABASE_STATEMENT_CACHE=off`) for poolers that do not keep them (PgBouncer in
    /// transaction mode): each statement is then sent unnamed and parsed every time.
    public var statementCache = true

    public init(
        host: String = "127.0.0.1", port: Int = 5432, username: String, password: String? = nil, database: String,
        unixSocketDirectory: String? = nil, tls: TLSMode = .prefer
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.unixSocketDirectory = unixSocketDirectory
        self.tls = tls
        poolSize = 8 * max(2, OSThread.coreCount)
        acquireTimeout = .seconds(5)
        connectTimeout = .seconds(5)
    }

    /// `postgres://user:pass@host:port/db?sslmode=verify-full&sslrootcert=/path/ca.crt` (also
    /// `postgresql://`; `?host=/dir` selects a unix socket; `pool_size`, `statement_cache`).
    /// User and password are percent-decoded. `statementCache` applies unless the URL sets
    /// `statement_cache`. An unknown parameter is an error: a typo must not be ignored.
    public init(url: String, statementCache: Bool = true) throws(InvalidURL) {
        guard let components = URLComponents(string: url),
              components.scheme == "postgres" || components.scheme == "postgresql"
        else { throw InvalidURL(description: "not a database URL: expected postgres://user:pass@host:port/db") }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let user = components.percentEncodedUser.flatMap { $0.removingPercentEncoding } ?? "postgres"
        self.init(
            host: components.host ?? "127.0.0.1", port: components.port ?? 5432, username: user,
            password: components.percentEncodedPassword.flatMap { $0.removingPercentEncoding },
            database: database.isEmpty ? user : database)
        self.statementCache = statementCache
        for item in components.queryItems ?? [] {
            let value = item.value ?? ""
            switch item.name {
            case "sslmode": tls = try TLSMode(parsing: value)
            case "sslrootcert": tlsRootCertificate = value
            case "host": unixSocketDirectory = value
            case "pool_size":
                guard let size = Int(value), Self.poolSizes.contains(size) else {
                    let sizes = "\(Self.poolSizes.lowerBound) to \(Self.poolSizes.upperBound)"
                    throw InvalidURL(description: "invalid pool_size '\(value)': expected \(sizes)")
                }
                poolSize = size
            case "statement_cache": self.statementCache = try Self.switchValue(value, of: "statement_cache")
            default:
                throw InvalidURL(
                    description: "unknown parameter '\(item.name)': expected sslmode, sslrootcert, host, pool_size or statement_cache")
            }
        }
    }

    /// The pool sizes a URL may ask for.
    public static let poolSizes = 1...10_000

    /// `on`/`off` (also `true`/`false`, `1`/`0`); anything else is an error naming the setting.
    private static func switchValue(_ text: String, of setting: String) throws(InvalidURL) -> Bool {
        switch text.lowercased() {
        case "on", "true", "1": return true
        case "off", "false", "0": return false
        default: throw InvalidURL(description: "invalid \(setting) '\(text)': expected on or off")
        }
    }

    /// libpq's keyword/value pairs (passed as arrays, so no quoting or escaping is involved).
    var libpqParameters: [(String, String)] {
        var parameters: [(String, String)] = [
            ("host", unixSocketDirectory ?? host), ("port", String(port)), ("user", username), ("dbname", database),
            ("sslmode", tls.rawValue), ("connect_timeout", String(max(1, connectTimeout.components.seconds))),
            ("application_name", "til"), ("options", "-c TimeZone=UTC -c DateStyle=ISO"),
        ]
        if let tlsRootCertificate { parameters.append(("sslrootcert", tlsRootCertificate)) }
        if let password { parameters.append(("password", password)) }
        return parameters
    }

    /// Where this connects, without the password: `127.0.0.1:5432/til as til`.
    public var endpointDescription: String {
        "\(unixSocketDirectory ?? host):\(port)/\(database) as \(username)"
    }
}
