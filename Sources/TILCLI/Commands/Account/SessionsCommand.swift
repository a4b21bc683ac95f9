import ArgumentParser
import Foundation
import TILClient

/// `til sessions [list | end ID]`
struct SessionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions", abstract: "Where you are logged in (needs the account scope).",
        subcommands: [List.self, End.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every live session, oldest first; * marks this one.")

        @OptionGroup var options: GlobalOptions

        func run() async throws {
            let context = try await options.context()
            try context.output.list(try await context.client.account.sessions())
        }
    }

    struct End: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "End one session: its tokens stop working.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The session's id.", transform: Identifier.parse)
        var id: UUID

        func run() async throws {
            let context = try await options.context()
            try await context.client.account.endSession(id)
            context.output.done("Ended session \(id.uuidString).")
        }
    }
}
