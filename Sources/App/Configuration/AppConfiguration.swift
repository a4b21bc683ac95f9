public import Foundation
public import Logging
public import Postgres
public import Web

/// Everything TIL reads from its environment, checked once at start-up.
public struct AppConfiguration: Sendable {
    public var environment: Environment
    public var database: PostgresConfiguration
    /// Streaming replicas for anonymous reads (`DATABASE_READ_URL`, comma-separated); empty:
    /// every read goes to `database`. See `PublicReads` for which reads may go there.
    public var readReplicas: [PostgresConfiguration] = []
    public var adminPassword: String
    public var bcryptCost: Int
    public var logLevel: Logger.Level
    /// Token lifetimes, throttling, trusted proxies, edit policy (`AuthSettings`).
    public var auth = AuthSettings()
    /// `/metrics` on the API's port, on a port of its own, or off (`MetricsExposure`).
    public var metrics = MetricsExposure.serverPort

    public init(
        environment: Environment, database: PostgresConfiguration, adminPassword: String,
        bcryptCost: Int = 12, logLevel: Logger.Level = .info
    ) {
        self.environment = environment
        self.database = database
        self.adminPassword = adminPassword
        self.bcryptCost = bcryptCost
        self.logLevel = logLevel
    }

    /// From `DATABASE_URL` (or `DATABASE_HOST/PORT/USERNAME/PASSWORD/NAME`), `DATABASE_READ_URL`,
    /// `ADMIN_PASSWORD`, `BCRYPT_COST`, `LOG_LEVEL`, `METRICS` and `METRICS_PORT`. Only development
    /// and testing may go without `ADMIN_PASSWORD` (see `AdminPasswordPolicy.swift`).
    public static func load(
        environment: Environment, from variables: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> AppConfiguration {
        let adminPassword = try adminPassword(environment: environment, from: variables)
        var cost = 12
        if let text = variables["BCRYPT_COST"] {
            guard let value = Int(text), (4...31).contains(value) else {
                throw ConfigurationError("BCRYPT_COST must be a number from 4 to 31.")
            }
            cost = value
        }
        var level = environment == .production ? Logger.Level.notice : .info
        if let text = variables["LOG_LEVEL"] {
            guard let value = Logger.Level(rawValue: text.lowercased()) else {
                throw ConfigurationError("LOG_LEVEL must be one of trace, debug, info, notice, warning, error, critical.")
            }
            level = value
        }
        let database: PostgresConfiguration
        do {
            database = try PostgresConfiguration.fromEnvironment(variables)
        } catch {
            throw ConfigurationError("Invalid database configuration: \(error)")
        }
        var configuration = AppConfiguration(
            environment: environment, database: database, adminPassword: adminPassword, bcryptCost: cost, logLevel: level)
        configuration.readReplicas = try readReplicas(from: variables)
        configuration.auth = try AuthSettings.load(from: variables)
        configuration.metrics = try MetricsExposure.load(from: variables)
        return configuration
    }
}

extension AppConfiguration {
    /// `DATABASE_READ_URL=postgres://…/til,postgres://…/til`: each URL like `DATABASE_URL`
    /// (same `DATABASE_STATEMENT_CACHE` default); empty entries are ignored.
    static func readReplicas(from variables: [String: String]) throws -> [PostgresConfiguration] {
        let urls = (variables["DATABASE_READ_URL"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return try urls.filter { !$0.isEmpty }.enumerated().map { index, url in
            do {
                return try PostgresConfiguration(url: url, environment: variables)
            } catch {
                throw ConfigurationError("DATABASE_READ_URL entry \(index + 1): \(error)")
            }
        }
    }
}

/// A configuration mistake, with a message meant for the operator.
public struct ConfigurationError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
