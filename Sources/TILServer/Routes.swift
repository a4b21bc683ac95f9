import App
import ArgumentParser
import Logging
import Postgres
import Web

struct Routes: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print the route table.")

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let (configuration, logger) = try common.load()
        let til = TIL(configuration: configuration, logger: logger)  // no connection is opened
        let app = Application(environment: configuration.environment, logger: logger)
        try til.configure(app)
        print(app.routeTable)
        await til.db.shutdown()
    }
}
