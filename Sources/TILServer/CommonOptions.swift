import App
import ArgumentParser
import Logging
import Postgres
import Web

/// Options every subcommand shares, and how each reads its configuration: one `ConfigReader`
/// over the process environment, with `--env` in place of `ENVIRONMENT`.
struct CommonOptions: ParsableArguments {
    @Option(name: .long, help: "development, testing or production (default: $ENVIRONMENT, else production).")
    var env: String?

    /// The environment, with the options of this command line in place of their variables.
    var reader: ConfigReader {
        ConfigReader().overriding(.environment, with: env, from: "--env")
    }

    /// Reads the app's configuration from `reader` and sets up logging: every line of the
    /// process one logfmt record with every value quoted (`LogfmtLogHandler`), so nothing a
    /// client sends can forge a field or a line. `seedsAdmin`: the command may create the admin
    /// account (see `AppConfiguration.init(reader:seedsAdmin:)`).
    func load(_ reader: ConfigReader, seedsAdmin: Bool = true) throws -> (AppConfiguration, Logger) {
        let configuration = try AppConfiguration(reader: reader, seedsAdmin: seedsAdmin)
        LoggingSystem.bootstrap { label in
            var handler = LogfmtLogHandler(label: label)
            handler.logLevel = configuration.logLevel
            return handler
        }
        return (configuration, Logger(label: "til"))
    }

    /// Runs `work` with the app over its database, then closes the database; a failed
    /// connection becomes the operator's line (`DatabaseAccess`). For commands that serve nothing.
    /// `opensSecrets`: the command reads or writes what `SECRET_KEY` seals (`keys`).
    func withTIL<T>(seedsAdmin: Bool, opensSecrets: Bool = false, _ work: (TIL) async throws -> T) async throws -> T {
        let reader = reader
        let (loaded, logger) = try load(reader, seedsAdmin: seedsAdmin)
        var configuration = loaded
        if opensSecrets { try configuration.requireSecretKey() }
        let til = TIL(configuration: configuration, logger: logger)
        do {
            let result = try await DatabaseAccess(configuration, reader: reader).run { try await work(til) }
            await til.db.shutdown()
            return result
        } catch {
            await til.db.shutdown()
            throw error
        }
    }
}
