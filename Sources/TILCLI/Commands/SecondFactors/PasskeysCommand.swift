import ArgumentParser
import Foundation
import TILClient

/// `til passkeys [list | rename ID NAME | remove ID]`
struct PasskeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passkeys", abstract: "Your passkeys (needs the account scope); add them on the account page in a browser.",
        subcommands: [RowsCommand<List>.self, ActionCommand<Rename>.self, ActionCommand<Remove>.self],
        defaultSubcommand: RowsCommand<List>.self)

    struct List: RowsRoute, NeedsLogin {
        static let configuration = CommandConfiguration(abstract: "Every passkey of your account.")

        func rows(from client: APIClient) async throws -> [PasskeySummary] {
            try await client.passkeys.list()
        }
    }

    struct Rename: ActionRoute, NeedsLogin {
        static let configuration = CommandConfiguration(abstract: "Give a passkey a new name.")
        @Argument(help: "The passkey's id (the ID column of `til passkeys`).", transform: Identifier.parse) var id: UUID
        @Argument(help: "Its new name.") var name: String

        func perform(on client: APIClient) async throws -> String {
            let renamed = try await client.passkeys.rename(id, to: name)
            return "Renamed passkey \(id.uuidString) to \(renamed.name)."
        }
    }

    struct Remove: ActionRoute, NeedsLogin {
        static let configuration = CommandConfiguration(abstract: "Remove a passkey: it no longer signs in.")
        @Argument(help: "The passkey's id (the ID column of `til passkeys`).", transform: Identifier.parse) var id: UUID

        func perform(on client: APIClient) async throws -> String {
            try await client.passkeys.remove(id)
            return "Removed passkey \(id.uuidString)."
        }
    }
}
