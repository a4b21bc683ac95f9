import App
import ArgumentParser
import Foundation
import Logging
import Postgres
import Threads
import Web

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the API (migrating first, unless told not to).")

    @OptionGroup var common: CommonOptions

    @Option(name: [.customLong("hostname"), .customShort("H")], help: "Address to bind.")
    var hostname = "127.0.0.1"

    @Option(name: .shortAndLong, help: "Port to bind (default: $PORT, else 8080).")
    var port: Int?

    @Option(
        name: .customLong("max-connections"),
        help: "Most connections open at once; further ones get 503 (default: $MAX_CONNECTIONS, else 10000).")
    var maxConnections: Int?

    @Flag(name: .customLong("no-auto-migrate"), help: "Do not apply pending migrations at start-up.")
    var noAutoMigrate = false

    @Flag(
        name: .customLong("reuse-port"),
        help: "Share the port with a til-server already on it (zero-downtime restart: start the new one, then stop the old).")
    var reusePort = false

    @OptionGroup var tlsOptions: TLSOptions

    func run() async throws {
        let (configuration, logger) = try common.load()
        let tls: TLSConfiguration?
        do {
            try configuration.checkAdminPassword(servingOn: hostname)  // before migrating seeds it
            tls = try tlsOptions.configuration(environment: ProcessInfo.processInfo.environment)
        } catch let error as ConfigurationError {
            throw CommonOptions.exit(error)
        }
        BackgroundPriority.lowerOwnSession()  // under contention, PostgreSQL's session gets 3x this server's CPU
        let til = TIL(configuration: configuration, logger: logger)
        if !noAutoMigrate {
            do {
                try await til.migrator.migrate()
            } catch {
                logger.critical("migrations failed: \(error)")
                await til.db.shutdown()
                throw ExitCode.failure
            }
        }
        let app = Application(environment: configuration.environment, logger: logger)
        app.http.host = hostname
        app.http.port = port ?? ProcessInfo.processInfo.environment["PORT"].flatMap { Int($0) } ?? 8080
        app.http.reusePort = reusePort
        let limitText = maxConnections.map(String.init) ?? ProcessInfo.processInfo.environment["MAX_CONNECTIONS"]
        if let limitText {
            guard let limit = Int(limitText), limit > 0 else {
                throw ValidationError("--max-connections (MAX_CONNECTIONS) must be a whole number of at least 1, not '\(limitText)'.")
            }
            app.http.limits.maxConnections = limit
        }
        app.http.tls = tls
        try til.configure(app)
        do {
            try await app.run()
        } catch let error as HTTPServerError {
            await app.shutdown()
            FileHandle.standardError.write(Data("""
                til-server: \(error). Stop the server using it or choose another --port; to take over \
                from a running til-server without downtime, start the new one with --reuse-port.\n
                """.utf8))
            throw ExitCode.failure
        }
    }
}
