public import Foundation
import Threads

/// Where and how to connect, from a URL or the environment.
public struct PostgresConfiguration: Sendable {
    /// libpq's `sslmode`, passed through unchanged: `verify-ca` and `verify-full` check the
    /// server's certificate (against `tlsRootCertificate`, else `~/.postgresql/root.crt`).
    public enum TLSMode: String, Sendable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"

        /// The mode named by a URL or `PGSSLMODE`; an unknown name is an error, never a
        /// silently weaker mode.
        public init(parsing text: String) throws {
            guard let mode = TLSMode(rawValue: text) else {
                throw PostgresError(.connectionFailed, message: "Invalid sslmode '\(text)' (expected one of \(Self.names)).")
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
    /// `min(cores, poolSize)` loops of the client's own. Default 4 per core (8 at least): a
    /// loop keeps that many statements in flight; more only made PostgreSQL's backends
    /// contend for the cores (Benchmarks/RESULTS.md, "The database path on the event loops").
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
        poolSize = 4 * max(2, OSThread.coreCount)
        acquireTimeout = .seconds(5)
        connectTimeout = .seconds(5)
    }

    /// `postgres://user:pass@host:port/db?sslmode=verify-full&sslrootcert=/path/ca.crt` (also
    /// `postgresql://`; `?host=/dir` selects a unix socket; `pool_size`, `statement_cache`).
    /// User and password are percent-decoded. Environment defaults (`DATABASE_STATEMENT_CACHE`)
    /// apply unless the URL sets the same thing.
    public init(url: String, environment: [String: String] = [:]) throws {
        guard let components = URLComponents(string: url),
              components.scheme == "postgres" || components.scheme == "postgresql"
        else { throw PostgresError(.connectionFailed, message: "Invalid database URL (expected postgres://user:pass@host:port/db).") }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let user = components.percentEncodedUser.flatMap { $0.removingPercentEncoding } ?? "postgres"
        self.init(
            host: components.host ?? "127.0.0.1", port: components.port ?? 5432, username: user,
            password: components.percentEncodedPassword.flatMap { $0.removingPercentEncoding },
            database: database.isEmpty ? user : database)
        try applyDefaults(from: environment)
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode": tls = try TLSMode(parsing: item.value ?? "")
            case "sslrootcert": tlsRootCertificate = item.value
            case "host": unixSocketDirectory = item.value
            case "pool_size": poolSize = Int(item.value ?? "").map { max(1, $0) } ?? poolSize
            case "statement_cache": statementCache = try Self.switchValue(item.value ?? "", of: "statement_cache")
            default: break
            }
        }
    }

    /// `DATABASE_URL`, else `DATABASE_HOST/PORT/USERNAME/PASSWORD/NAME`, else libpq's `PG*` variables
    /// (with `PGSSLMODE`, `PGSSLROOTCERT`); `DATABASE_STATEMENT_CACHE=off` applies to all three.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> PostgresConfiguration {
        if let url = environment["DATABASE_URL"], !url.isEmpty { return try PostgresConfiguration(url: url, environment: environment) }
        var configuration: PostgresConfiguration
        if let host = environment["DATABASE_HOST"] {
            configuration = PostgresConfiguration(
                host: host, port: environment["DATABASE_PORT"].flatMap(Int.init) ?? 5432,
                username: environment["DATABASE_USERNAME"] ?? "til", password: environment["DATABASE_PASSWORD"],
                database: environment["DATABASE_NAME"] ?? "til")
        } else {
            let user = environment["PGUSER"] ?? "postgres"
            configuration = PostgresConfiguration(
                host: environment["PGHOST"] ?? "127.0.0.1", port: environment["PGPORT"].flatMap(Int.init) ?? 5432,
                username: user, password: environment["PGPASSWORD"], database: environment["PGDATABASE"] ?? user)
            if let mode = environment["PGSSLMODE"] { configuration.tls = try TLSMode(parsing: mode) }
            configuration.tlsRootCertificate = environment["PGSSLROOTCERT"]
        }
        try configuration.applyDefaults(from: environment)
        return configuration
    }

    private mutating func applyDefaults(from environment: [String: String]) throws {
        if let text = environment["DATABASE_STATEMENT_CACHE"] {
            statementCache = try Self.switchValue(text, of: "DATABASE_STATEMENT_CACHE")
        }
    }

    /// `on`/`off` (also `true`/`false`, `1`/`0`); anything else is an error naming the setting.
    private static func switchValue(_ text: String, of setting: String) throws -> Bool {
        switch text.lowercased() {
        case "on", "true", "1": return true
        case "off", "false", "0": return false
        default: throw PostgresError(.connectionFailed, message: "Invalid \(setting) '\(text)' (expected on or off).")
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

    /// For error messages: where we tried to connect, without the password.
    var endpointDescription: String {
        "\(unixSocketDirectory ?? host):\(port)/\(database) as \(username)"
    }
}
