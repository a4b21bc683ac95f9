import ArgumentParser
import Foundation
import TILClient

/// `til sessions [list | end ID]`
struct SessionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions", abstract: "Where you are logged in (needs the account scope).",
        subcommands: [RowsCommand<List>.self, ActionCommand<End>.self], defaultSubcommand: RowsCommand<List>.self)

    struct List: RowsRoute, NeedsLogin {
        static let configuration = CommandConfiguration(abstract: "Every live session, oldest first; * marks this one.")

        func rows(from client: APIClient) async throws -> [SessionInfo] {
            try await client.account.sessions()
        }
    }

    struct End: ActionRoute, NeedsLogin {
        static let configuration = CommandConfiguration(abstract: "End one session: its tokens stop working.")
        @Argument(help: "The session's id.", transform: Identifier.parse) var id: UUID

        func perform(on client: APIClient) async throws -> String {
            try await client.account.endSession(id)
            return "Ended session \(id.uuidString)."
        }
    }
}
