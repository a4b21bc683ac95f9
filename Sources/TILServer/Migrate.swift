import App
import ArgumentParser
import Foundation
import Logging
import Postgres
import Web

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply pending migrations, or revert the last batch.")

    @OptionGroup var common: CommonOptions

    @Flag(help: "Revert the last batch of migrations instead.")
    var revert = false

    @Flag(name: [.customLong("yes"), .customShort("y")], help: "Do not ask for confirmation.")
    var yes = false

    func run() async throws {
        let (configuration, logger) = try common.load()
        let til = TIL(configuration: configuration, logger: logger)
        if !yes {
            print(revert ? "Revert the last batch of migrations? (y/n) " : "Apply pending migrations? (y/n) ", terminator: "")
            guard readLine()?.lowercased().hasPrefix("y") == true else {
                print("Cancelled.")
                return
            }
        }
        let names = revert ? try await til.migrator.revertLastBatch() : try await til.migrator.migrate()
        print(names.isEmpty ? "Nothing to do." : names.map { (revert ? "reverted " : "applied ") + $0 }.joined(separator: "\n"))
        await til.db.shutdown()
    }
}
