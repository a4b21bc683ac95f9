import App
import ArgumentParser
import Web

/// The route table, from the same wiring `serve` uses, without a database: nothing connects
/// (the client opens connections only for queries) and `ADMIN_PASSWORD` is not needed.
struct Routes: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print the route table (no database needed).")

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let (loaded, logger) = try common.load(common.reader, seedsAdmin: false)
        var configuration = loaded
        // `/metrics` on a port of its own, or none in production, is not in the table either way;
        // this way nothing binds it and nothing says so.
        if !configuration.metrics.isServedOnServerPort { configuration.metrics = .off }
        let til = TIL(configuration: configuration, logger: logger)
        let app = Application(environment: configuration.environment, logger: logger)
        try til.configure(app)
        print(app.routeTable)
        await app.shutdown()
    }
}
