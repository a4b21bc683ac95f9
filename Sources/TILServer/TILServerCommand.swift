import App
import ArgumentParser
import Foundation
import Logging
import Web

/// `til-server serve | migrate | routes`, as Vapor's commands.
@main
struct TILServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "til-server",
        abstract: "The TIL (Today I Learned) API server.",
        subcommands: [Serve.self, Migrate.self, Routes.self],
        defaultSubcommand: Serve.self)
}

/// Options every subcommand shares.
struct CommonOptions: ParsableArguments {
    @Option(name: .long, help: "development, testing or production (default: $ENVIRONMENT, else production).")
    var env: String?

    var environment: Environment { env.map(Environment.named) ?? .detect() }

    /// Loads the configuration and sets up logging; a configuration mistake ends the process
    /// with its message.
    func load() throws -> (AppConfiguration, Logger) {
        let configuration: AppConfiguration
        do {
            configuration = try AppConfiguration.load(environment: environment)
        } catch let error as ConfigurationError {
            throw Self.exit(error)
        }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = configuration.logLevel
            return handler
        }
        var logger = Logger(label: "til")
        logger.logLevel = configuration.logLevel
        return (configuration, logger)
    }

    /// Prints a configuration mistake for the operator; the exit code to end with.
    static func exit(_ error: ConfigurationError) -> ExitCode {
        FileHandle.standardError.write(Data("til-server: \(error)\n".utf8))
        return ExitCode(78)  // EX_CONFIG
    }
}
