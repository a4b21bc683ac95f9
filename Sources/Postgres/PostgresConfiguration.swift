public import Foundation

/// Where and how to connect, from a URL or the environment.
public struct PostgresConfiguration: Sendable {
    public enum TLSMode: String, Sendable {
        case disable, prefer, require
    }

    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    /// A unix-socket directory instead of TCP (`?host=/var/run/postgresql`).
    public var unixSocketDirectory: String?
    public var tls: TLSMode
    /// Connections shared out over the event loops that use the client (one per core): each
    /// loop opens at most `poolSize / cores` (rounded up), and off-loop callers are served by
    /// `min(cores, poolSize)` loops of the client's own.
    public var poolSize: Int
    /// How long a query waits for a free connection before `databaseBusy`.
    public var acquireTimeout: Duration
    public var connectTimeout: Duration
    /// Named prepared statements, parsed once per connection. Off for poolers that do not
    /// keep them (PgBouncer in transaction mode): each statement is then parsed every time.
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
        poolSize = max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)
        acquireTimeout = .seconds(5)
        connectTimeout = .seconds(5)
    }

    /// `postgres://user:pass@host:port/db?sslmode=disable` (also `postgresql://`; `?host=/dir`
    /// selects a unix socket). User and password are percent-decoded.
    public init(url: String) throws {
        guard let components = URLComponents(string: url),
              components.scheme == "postgres" || components.scheme == "postgresql"
        else { throw PostgresError(.connectionFailed, message: "Invalid database URL (expected postgres://user:pass@host:port/db).") }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let user = components.percentEncodedUser.flatMap { $0.removingPercentEncoding } ?? "postgres"
        self.init(
            host: components.host ?? "127.0.0.1", port: components.port ?? 5432, username: user,
            password: components.percentEncodedPassword.flatMap { $0.removingPercentEncoding },
            database: database.isEmpty ? user : database)
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode": tls = TLSMode(rawValue: item.value ?? "") ?? (item.value == "verify-full" || item.value == "verify-ca" ? .require : .prefer)
            case "host": unixSocketDirectory = item.value
            case "pool_size": poolSize = Int(item.value ?? "").map { max(1, $0) } ?? poolSize
            default: break
            }
        }
    }

    /// `DATABASE_URL`, else `DATABASE_HOST/PORT/USERNAME/PASSWORD/NAME`, else libpq's `PG*` variables.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> PostgresConfiguration {
        if let url = environment["DATABASE_URL"], !url.isEmpty { return try PostgresConfiguration(url: url) }
        if let host = environment["DATABASE_HOST"] {
            return PostgresConfiguration(
                host: host, port: environment["DATABASE_PORT"].flatMap(Int.init) ?? 5432,
                username: environment["DATABASE_USERNAME"] ?? "til", password: environment["DATABASE_PASSWORD"],
                database: environment["DATABASE_NAME"] ?? "til")
        }
        let user = environment["PGUSER"] ?? "postgres"
        return PostgresConfiguration(
            host: environment["PGHOST"] ?? "127.0.0.1", port: environment["PGPORT"].flatMap(Int.init) ?? 5432,
            username: user, password: environment["PGPASSWORD"], database: environment["PGDATABASE"] ?? user)
    }

    /// libpq's keyword/value pairs (passed as arrays, so no quoting or escaping is involved).
    var libpqParameters: [(String, String)] {
        var parameters: [(String, String)] = [
            ("host", unixSocketDirectory ?? host), ("port", String(port)), ("user", username), ("dbname", database),
            ("sslmode", tls.rawValue), ("connect_timeout", String(max(1, connectTimeout.components.seconds))),
            ("application_name", "til"), ("options", "-c TimeZone=UTC -c DateStyle=ISO"),
        ]
        if let password { parameters.append(("password", password)) }
        return parameters
    }

    /// For error messages: where we tried to connect, without the password.
    var endpointDescription: String {
        "\(unixSocketDirectory ?? host):\(port)/\(database) as \(username)"
    }
}
