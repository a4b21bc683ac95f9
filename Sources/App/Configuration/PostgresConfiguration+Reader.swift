import Foundation
public import Postgres

/// The database settings, read the way Hummingbird's `init(reader:)` reads a module's
/// configuration: the Postgres module takes plain values and never sees the environment.
extension PostgresConfiguration {
    /// `DATABASE_URL`, else `DATABASE_HOST`, `DATABASE_PORT`, `DATABASE_USERNAME`,
    /// `DATABASE_PASSWORD` and `DATABASE_NAME` (each with its declared default), with
    /// `DATABASE_STATEMENT_CACHE` for both (a URL's own `statement_cache` wins).
    ///
    /// With none of them set this is `til@127.0.0.1:5432/til`, where nothing usually listens:
    /// `DatabaseUnreachable` then says that DATABASE_URL is unset and how to get a database.
    public init(reader: ConfigReader) throws(ConfigurationError) {
        let statementCache = try reader.isOn(.databaseStatementCache) ?? true
        let port = try reader.number(.databasePort)  // checked even when the URL decides
        if let url = try reader.value(.databaseURL, { try PostgresConfiguration(url: $0, statementCache: statementCache) }) {
            self = url
            return
        }
        self.init(
            host: reader.string(.databaseHost) ?? "127.0.0.1", port: port ?? 5432,
            username: reader.string(.databaseUsername) ?? "til", password: reader.string(.databasePassword),
            database: reader.string(.databaseName) ?? "til")
        self.statementCache = statementCache
    }

    /// True when no variable says where the database is (see `init(reader:)`).
    public static func isUnset(in reader: ConfigReader) -> Bool {
        !reader.isSet(.databaseURL) && !reader.isSet(.databaseHost)
    }

    /// `DATABASE_READ_URL=postgres://…/til,postgres://…/til`: each URL like `DATABASE_URL`
    /// (same `DATABASE_STATEMENT_CACHE` default); empty entries are ignored.
    static func readReplicas(reader: ConfigReader) throws(ConfigurationError) -> [PostgresConfiguration] {
        let statementCache = try reader.isOn(.databaseStatementCache) ?? true
        return try reader.value(.databaseReadURL) { text in
            let urls = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            return try urls.enumerated().map { index, url in
                do {
                    return try PostgresConfiguration(url: url, statementCache: statementCache)
                } catch {
                    throw ConfigurationError("entry \(index + 1): \(error)")
                }
            }
        } ?? []
    }
}
