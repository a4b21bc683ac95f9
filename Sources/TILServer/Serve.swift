import App
import ArgumentParser
import HTTP1
import Logging
import Postgres
import Threads
import Web

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the API (migrating first, unless told not to).", discussion: EnvironmentHelp.text)

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

    @Option(
        name: .customLong("tls-certificate"),
        help: ArgumentHelp(
            "With --tls-key: serve HTTPS (TLS 1.2/1.3) with this PEM certificate chain instead of HTTP (default: $TLS_CERTIFICATE). Usually TLS ends at a proxy in front: leave unset then.",
            valueName: "pem-file"))
    var tlsCertificate: String?

    @Option(
        name: .customLong("tls-key"),
        help: ArgumentHelp("PEM private key of --tls-certificate (default: $TLS_KEY).", valueName: "pem-file"))
    var tlsKey: String?

    @Option(
        name: .customLong("issuer"),
        help: ArgumentHelp(
            "The public base URL clients reach TIL by, e.g. https://til.example (default: $ISSUER; on loopback, http://HOST:PORT as served).",
            valueName: "url"))
    var issuer: String?

    /// Checks everything it can before it touches the database or binds: the configuration,
    /// the admin password for this address, the TLS files, `SECRET_KEY`. Then migrates, compares the
    /// stored admin password with the configuration, opens (or first makes) the signing keys, and serves until SIGINT or SIGTERM.
    func run() async throws {
        let reader = common.reader
            .overriding(.port, with: port.map(String.init), from: "--port")
            .overriding(.maxConnections, with: maxConnections.map(String.init), from: "--max-connections")
            .overriding(.tlsCertificate, with: tlsCertificate, from: "--tls-certificate")
            .overriding(.tlsKey, with: tlsKey, from: "--tls-key")
            .overriding(.issuer, with: issuer, from: "--issuer")
        let (loaded, logger) = try common.load(reader)
        var configuration = loaded
        let server = try ServerSettings(reader: reader)
        try configuration.checkAdminPassword(servingOn: hostname)
        try configuration.checkIssuer(servingOn: hostname)
        try configuration.checkWebAuthn(servingOn: hostname, port: server.port, tls: server.tls != nil)
        try configuration.requireSecretKey()
        BackgroundPriority.lowerOwnSession()  // under contention, PostgreSQL's session gets 3x this server's CPU
        let til = TIL(configuration: configuration, logger: logger)
        do {
            try await DatabaseAccess(configuration, reader: reader).run {
                if !noAutoMigrate { try await migrate(til) }
                try await til.checkStoredAdminPassword()
                try await til.prepareSigningKeys()
            }
        } catch {
            await til.db.shutdown()
            throw error
        }
        let app = Application(environment: configuration.environment, logger: logger)
        app.http.host = hostname
        app.http.port = server.port
        app.http.reusePort = reusePort
        app.http.limits.maxConnections = server.maxConnections
        app.http.tls = server.tls
        try til.configure(app)
        try til.startMailSender(app)
        do {
            try await app.run()
        } catch let error as HTTPServerError {
            await app.shutdown()
            throw CommandFailure(
                "\(error). Stop the server using it or choose another --port; to take over from a running til-server "
                    + "without downtime, start the new one with --reuse-port.")
        }
    }

    private func migrate(_ til: TIL) async throws {
        do {
            try await til.migrator.migrate()
        } catch let error as PostgresError where error.kind == .connectionFailed {
            throw error  // DatabaseAccess explains it
        } catch {
            throw CommandFailure("migrations failed: \(error)")
        }
    }
}
