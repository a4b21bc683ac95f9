import App
import Postgres

/// Runs a command's database work and turns a failed connection into the operator's line: with
/// no `DATABASE_URL` (nor `DATABASE_HOST`) it says so and how to get a database (exit 78);
/// otherwise it names where it tried, never the password (exit 69). A database without TIL's
/// tables gets told to migrate.
struct DatabaseAccess {
    let database: PostgresConfiguration
    let isUnset: Bool

    init(_ configuration: AppConfiguration, reader: ConfigReader) {
        database = configuration.database
        isUnset = PostgresConfiguration.isUnset(in: reader)
    }

    func run<T>(_ work: () async throws -> T) async throws -> T {
        do {
            return try await work()
        } catch let error as PostgresError where error.kind == .connectionFailed {
            guard isUnset else { throw CommandFailure(error.message, status: CommandFailure.unavailable) }
            throw CommandFailure(
                "cannot connect to PostgreSQL at \(database.endpointDescription): DATABASE_URL is unset. "
                    + "`make db` starts a local PostgreSQL and prints the URL to set DATABASE_URL to (`make run` does both).",
                status: CommandFailure.configuration)
        } catch let error as PostgresError where error.sqlState == .undefinedTable {
            throw CommandFailure(
                "\(database.endpointDescription) lacks TIL's tables (\(error.message)): run `til-server migrate` first.")
        }
    }
}
