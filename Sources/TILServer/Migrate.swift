import App
import ArgumentParser
import Foundation
import Postgres
import Terminal

/// Names the database and what would change, then asks — on a terminal only: without one, and
/// without `--yes`, it refuses (exit 64) rather than guess an answer.
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply pending migrations, or revert the last batch.")

    @OptionGroup var common: CommonOptions

    @Flag(help: "Revert the last batch of migrations instead.")
    var revert = false

    @Flag(name: [.customLong("yes"), .customShort("y")], help: "Do not ask for confirmation.")
    var yes = false

    func run() async throws {
        try await common.withTIL(seedsAdmin: !revert) { til in
            print("Database: \(til.configuration.database.endpointDescription)")
            let names = revert ? try await til.migrator.lastBatch() : try await til.migrator.pendingMigrations()
            guard !names.isEmpty else { return print("Nothing to do.") }
            print(revert ? "The last batch, reverted newest first:" : "Pending migrations:")
            for name in names { print("  \(name)") }
            guard try yes || confirmed(revert ? "Revert these \(names.count)?" : "Apply these \(names.count)?") else {
                return print("Cancelled.")
            }
            let done = revert ? try await til.migrator.revertLastBatch() : try await til.migrator.migrate()
            print(done.map { (revert ? "reverted " : "applied ") + $0 }.joined(separator: "\n"))
        }
    }

    /// The operator's answer; refuses when no one can answer.
    private func confirmed(_ question: String) throws -> Bool {
        guard Prompt.stdinIsTerminal else {
            throw CommandFailure(
                "stdin is not a terminal, so no one can confirm: run `til-server migrate\(revert ? " --revert" : "") --yes` "
                    + "to go ahead without asking.",
                status: CommandFailure.usage)
        }
        print("\(question) (y/n) ", terminator: "")
        fflush(nil)  // the question before the answer
        return readLine()?.lowercased().hasPrefix("y") == true
    }
}
